// Parameter count of an ONNX model (cost weight of a model pass, SPEC §9).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onnx } from 'onnx-proto';
import { countOnnxParameters } from '../../../../src/core/models/parameters';
import { REPO } from '../../../helpers/paths';
import { tempDir } from '../../../helpers/tmp';

test('the shipped GloVe model: table 50002×100 + row scales 50002×1 + five scalar/1-element constants', async () => {
  // initializers listed with onnx-proto: table_int8 [50002,100], row_scale [50002,1], last_special_id [],
  // axis_seq [1], axis_last [1], one [], eps [] → 5 000 200 + 50 002 + 5
  assert.equal(await countOnnxParameters(join(REPO, 'media/models/glove-6b-100d-50k-int8/model.onnx')), 5_050_207);
});

test('initializers of sub-graphs count; a file that is not ONNX is a model error naming it', async (t) => {
  const dir = tempDir('spanproof-params-', t);
  const sub = onnx.GraphProto.create({ name: 'then', initializer: [onnx.TensorProto.create({ name: 's', dims: [5], dataType: 1 })] });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    graph: onnx.GraphProto.create({
      name: 'g',
      initializer: [onnx.TensorProto.create({ name: 'w', dims: [3, 4], dataType: 1 })],
      node: [onnx.NodeProto.create({ opType: 'If', attribute: [onnx.AttributeProto.create({ name: 'then_branch', type: onnx.AttributeProto.AttributeType.GRAPH, g: sub })] })],
    }),
  });
  const file = join(dir, 'm.onnx');
  writeFileSync(file, onnx.ModelProto.encode(model).finish());
  assert.equal(await countOnnxParameters(file), 17);
  const bad = join(dir, 'bad.onnx');
  writeFileSync(bad, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]));
  await assert.rejects(countOnnxParameters(bad), (e: Error & { code?: string; file?: string }) => e.code === 'model' && e.file === bad);
});
