/**
 * The download catalogue (SPEC §5.3): a few small ONNX models on the Hugging Face hub, each pinned to
 * a commit and each file to its SHA-256 and size, so `spanproof models pull <name>` fetches exactly
 * these bytes or nothing. Where every value came from is written beside it (`source`) and in
 * docs/models.md "Model catalogue". A value that could not be found offline is `null`, and pull
 * refuses that entry naming what is missing — it is never guessed.
 *
 * Files are those the model-folder loader (../folder.ts) reads: `onnx/model.onnx`, `tokenizer.json`
 * and the configs that set pooling and the row length.
 */
import { z } from 'zod';

/** One file of a catalogue model, at its path in the hub repository. */
export interface CatalogueFile {
  /** Path in the repository, `/`-separated. */
  path: string;
  /** Path in the pulled folder when it differs (a quantised export saved as `onnx/model.onnx`, where the folder loader looks). */
  saveAs?: string;
  /** Lower-case hex SHA-256 of the file's bytes; null = not known (pull refuses the entry). */
  sha256: string | null;
  /** Size in bytes; null = not known (pull refuses the entry). */
  size: number | null;
  /** Where `sha256` and `size` come from. */
  source: string;
}

export interface CatalogueEntry {
  /** The name users type (`spanproof models pull bge-small-en-v1.5`, `--embedders bge-small-en-v1.5`). */
  name: string;
  kind: 'embedder' | 'cross-encoder';
  /** Hugging Face repository `owner/name`. */
  repo: string;
  /** The pinned commit (40 hex digits); null = not known (pull refuses the entry). */
  revision: string | null;
  /** Where the revision comes from. */
  revisionSource: string;
  licence: string;
  /** One line for `spanproof models list`. */
  description: string;
  files: CatalogueFile[];
}

/** A relative `/`-separated path with no empty, `.` or `..` part. */
const SAFE_PATH = /^(?!\/)(?!.*(^|\/)\.\.?(\/|$))(?!.*\/\/)[\w./-]+$/;
const hex = (n: number) => new RegExp(`^[0-9a-f]{${n}}$`);

/** Schema of a catalogue file (`--catalogue FILE`: an organisation's own pinned models, e.g. on an internal hub mirror). */
export const catalogueSchema = z.array(
  z
    .object({
      name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'a name of letters, digits, ".", "_" and "-"'),
      kind: z.enum(['embedder', 'cross-encoder']),
      repo: z.string().regex(/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/, 'owner/name'),
      revision: z.string().regex(hex(40), '40 hex digits').nullable(),
      revisionSource: z.string(),
      licence: z.string(),
      description: z.string(),
      files: z
        .array(
          z
            .object({
              path: z.string().regex(SAFE_PATH, 'a relative path without ".." parts'),
              saveAs: z.string().regex(SAFE_PATH, 'a relative path without ".." parts').optional(),
              sha256: z.string().regex(hex(64), '64 lower-case hex digits').nullable(),
              size: z.number().int().nonnegative().nullable(),
              source: z.string(),
            })
            .strict(),
        )
        .min(1),
    })
    .strict(),
);

/** Why a value can be trusted; the full account with links is docs/models.md "Model catalogue". */
const MINILM_GIT = 'git blob at the pinned commit in DeathGamer111/MiniLM-L6-v2, a GitHub clone of the hub repository whose history carries the hub commits (03b24027… included)';
const BGE_PINS = 'pinned for BAAI/bge-small-en-v1.5@5c38ec7c in public download manifests (Blueturboguy07/jobleft; dejanote, whose hashes were "checked against the git objects of the commit")';
const E5_PINS = 'pinned for intfloat/multilingual-e5-small@614241f6 in two public model allow-lists with the same per-file SHA-256';
const REBUILT = 'verified here by rebuilding the file: the sentence-transformers config with the values the model card states hashes to exactly this SHA-256';

/** The built-in catalogue. */
export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    name: 'bge-small-en-v1.5',
    kind: 'embedder',
    repo: 'BAAI/bge-small-en-v1.5',
    revision: '5c38ec7c405ec4b44b94cc5a9bb96e735b38267a',
    revisionSource: 'the hub file list of BAAI/bge-small-en-v1.5 shows main at 5c38ec7 ("onnx support (#9)"); the full hash is pinned identically by several public projects (Blueturboguy07/jobleft, dejanote, a project\'s MTEB run record)',
    licence: 'MIT',
    description: '384-d English embedder (BERT, 12 layers), CLS pooling, 512 tokens (no query instruction is added)',
    files: [
      { path: 'onnx/model.onnx', sha256: '828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35', size: 133093490, source: `${BGE_PINS}; the same SHA-256 is shown on the hub blob page of this export (Xenova/bge-small-en-v1.5 onnx/model.onnx)` },
      { path: 'tokenizer.json', sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66', size: 711396, source: `${BGE_PINS} and two more manifests; the hub lists 711 kB` },
      { path: 'tokenizer_config.json', sha256: '9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3', size: 366, source: `${BGE_PINS}; the hub lists 366 Bytes` },
      { path: 'config.json', sha256: '094f8e891b932f2000c92cfc663bac4c62069f5d8af5b5278c4306aef3084750', size: 743, source: `${BGE_PINS}; the hub lists 743 Bytes` },
      { path: 'sentence_bert_config.json', sha256: '84e39fda68ccbff05bfa723ae9c0e70e23e2ec373b76e0f8c6e71af72a693cbf', size: 52, source: `dejanote's pin; ${REBUILT} (max_seq_length 512, do_lower_case true: 52 bytes, as the hub lists)` },
      { path: '1_Pooling/config.json', sha256: 'd1caf60c96f5fba2157c0c26b76d80818fad6cf0b8eb5e73ec372ff9818eba5c', size: 190, source: `dejanote's pin; ${REBUILT} (all-MiniLM-L6-v2's 190-byte pooling config with CLS instead of mean pooling)` },
    ],
  },
  {
    name: 'all-MiniLM-L6-v2',
    kind: 'embedder',
    repo: 'sentence-transformers/all-MiniLM-L6-v2',
    revision: '03b24027b56fc13a895539f88b0eeb8393803fa4',
    revisionSource: 'hub blob page https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/blob/03b24027b56fc13a895539f88b0eeb8393803fa4/onnx/model.onnx, and the same commit in the GitHub clone DeathGamer111/MiniLM-L6-v2',
    licence: 'Apache-2.0',
    description: '384-d English embedder (MiniLM, 6 layers), mean pooling, 256 tokens',
    files: [
      { path: 'onnx/model.onnx', sha256: '6fd5d72fe4589f189f8ebc006442dbb529bb7ce38f8082112682524616046452', size: 90405214, source: `Git LFS pointer (oid sha256, size) of the ${MINILM_GIT}; the SHA-256 is also on the hub blob page` },
      { path: 'tokenizer.json', sha256: 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037', size: 466247, source: `SHA-256 of the ${MINILM_GIT}` },
      { path: 'tokenizer_config.json', sha256: 'acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b', size: 350, source: `SHA-256 of the ${MINILM_GIT}` },
      { path: 'config.json', sha256: '953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41', size: 612, source: `SHA-256 of the ${MINILM_GIT}` },
      { path: 'sentence_bert_config.json', sha256: 'fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7', size: 53, source: `SHA-256 of the ${MINILM_GIT}` },
      { path: '1_Pooling/config.json', sha256: '4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23', size: 190, source: `SHA-256 of the ${MINILM_GIT}` },
    ],
  },
  {
    name: 'multilingual-e5-small',
    kind: 'embedder',
    repo: 'intfloat/multilingual-e5-small',
    revision: '614241f622f53c4eeff9890bdc4f31cfecc418b3',
    revisionSource: E5_PINS,
    licence: 'MIT',
    description: '384-d multilingual embedder (about 100 languages), mean pooling, 512 tokens; trained with "query: " / "passage: " prefixes, which Spanproof does not add (expect lower scores than its model card)',
    files: [
      { path: 'onnx/model.onnx', sha256: 'ca456c06b3a9505ddfd9131408916dd79290368331e7d76bb621f1cba6bc8665', size: 470268510, source: `${E5_PINS}; size from the Git LFS pointers (same oid) of the copies in kumo-ai/models and typesense/models on the hub` },
      { path: 'tokenizer.json', sha256: '0b44a9d7b51c3c62626640cda0e2c2f70fdacdc25bbbd68038369d14ebdf4c39', size: 17082730, source: `${E5_PINS} (one with the size); the hub blob page of intfloat/multilingual-e5-small onnx/tokenizer.json shows this SHA-256 (17.1 MB)` },
      { path: 'tokenizer_config.json', sha256: 'a1d6bc8734a6f635dc158508bef000f8e2e5a759c7d92f984b2c86e5ff53425b', size: 443, source: E5_PINS },
      { path: 'config.json', sha256: '69137736cab8b8903a07fe8afaafdda25aac55415a12a55d1bffa9f581abf959', size: 655, source: E5_PINS },
      { path: 'sentence_bert_config.json', sha256: '948201d8329907aae938fa62f9ceeed53f5694dacc2b87b9f3b78b37ee986529', size: 57, source: `${E5_PINS}; ${REBUILT} (max_seq_length 512, do_lower_case false, 4-space indent: 57 bytes)` },
      { path: '1_Pooling/config.json', sha256: '987f7a67a38fa564c849bb5d277c52ab9088a84368fc0be31a354125aebb12a0', size: 200, source: `${E5_PINS}; ${REBUILT} (mean pooling, 4-space indent: 200 bytes)` },
    ],
  },
  {
    name: 'ms-marco-MiniLM-L-6-v2',
    kind: 'cross-encoder',
    repo: 'Xenova/ms-marco-MiniLM-L-6-v2',
    revision: 'a09144355adeed5f58c8ed011d209bf8ee5a1fec',
    revisionSource: 'pinned in a public relevance-model allow-list ("URL pinned to the repo\'s HEAD commit sha at the time this artifact was verified"); one source only',
    licence: 'Apache-2.0',
    description: 'cross-encoder for passage reranking trained on MS MARCO (cross-encoder/ms-marco-MiniLM-L-6-v2, 6 layers); int8-quantised ONNX export — the fp32 file could not be pinned offline',
    files: [
      { path: 'onnx/model_quantized.onnx', saveAs: 'onnx/model.onnx', sha256: 'e9d8ebf845c413e981c175bfe49a3bfa9b3dcce2a3ba54875ee5df5a58639fbe', size: 23143499, source: 'size and SHA-256 from the same allow-list (one source only)' },
      { path: 'vocab.txt', sha256: '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3', size: 231508, source: `the same allow-list; the same bytes (BERT uncased vocabulary) are the vocab.txt ${MINILM_GIT}` },
    ],
  },
  {
    name: 'bge-reranker-base',
    kind: 'cross-encoder',
    repo: 'Xenova/bge-reranker-base',
    revision: 'b4ea4663edc07ce975fadca89e44383333d7269f',
    revisionSource: 'hub blob page https://huggingface.co/Xenova/bge-reranker-base/blob/b4ea4663edc07ce975fadca89e44383333d7269f/onnx/model_quantized.onnx',
    licence: 'MIT',
    description: 'multilingual cross-encoder (XLM-RoBERTa base, BAAI/bge-reranker-base), int8-quantised ONNX export; not pullable yet: its exact sizes and the tokenizer hash could not be found offline',
    files: [
      { path: 'onnx/model_quantized.onnx', saveAs: 'onnx/model.onnx', sha256: 'dd98f3e67837d23210a6b7550c08cced4f61845b940ac45be3565840a10f3244', size: null, source: 'SHA-256 on the hub blob page above; the page shows the size rounded (279 MB), the exact size was not found' },
      { path: 'tokenizer.json', sha256: null, size: null, source: 'not found offline' },
    ],
  },
];

/** The entry called `name` (exact, then case-insensitive), or undefined. */
export function findCatalogueEntry(name: string, catalogue: readonly CatalogueEntry[] = CATALOGUE): CatalogueEntry | undefined {
  return catalogue.find((e) => e.name === name) ?? catalogue.find((e) => e.name.toLowerCase() === name.toLowerCase());
}

/** What the entry lacks for a verified download (`revision`, `tokenizer.json sha256`, …); empty when complete. */
export function missingPins(e: CatalogueEntry): string[] {
  const out: string[] = [];
  if (!e.revision) out.push('revision');
  for (const f of e.files) {
    if (!f.sha256) out.push(`${f.path} sha256`);
    if (f.size === null) out.push(`${f.path} size`);
  }
  return out;
}

/** Sum of the known file sizes in bytes (what a pull downloads). */
export function entryBytes(e: CatalogueEntry): number {
  return e.files.reduce((s, f) => s + (f.size ?? 0), 0);
}
