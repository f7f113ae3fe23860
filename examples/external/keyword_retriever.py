"""A 30-line external retriever for `spanproof run --retriever-cmd` (docs/external.md): the sections
(a heading and what follows it) of the Markdown files under the current folder, ranked by the words
they share with the question, rarer words counting more."""
import json, math, os, re, sys

def u16(s):  # Spanproof offsets are UTF-16 code units
    return len(s.encode("utf-16-le")) // 2

passages = []  # (source, start, end, words)
for root, dirs, files in os.walk("."):
    dirs[:] = sorted(d for d in dirs if not d.startswith("."))
    for name in sorted(f for f in files if f.endswith(".md")):
        path = os.path.join(root, name)
        text = open(path, encoding="utf-8-sig", newline="").read()
        source = os.path.relpath(path, ".").replace(os.sep, "/")
        for m in re.finditer(r"(?m)^(?:#{1,6} |\A).*(?:\n(?!#{1,6} ).*)*", text):  # a heading and its body
            start, end = u16(text[: m.start()]), u16(text[: m.end()])
            passages.append((source, start, end, set(re.findall(r"\w+", m.group().lower()))))

df = {}
for p in passages:
    for w in p[3]:
        df[w] = df.get(w, 0) + 1

for line in sys.stdin:
    req = json.loads(line)
    words = set(re.findall(r"\w+", req["question"].lower()))
    score = lambda p: sum(math.log(1 + len(passages) / df[w]) for w in words & p[3])
    ranked = sorted(passages, key=lambda p: (-score(p), p[0], p[1]))
    results = [{"source": p[0], "start": p[1], "end": p[2], "score": score(p)} for p in ranked[: req["k"]]]
    print(json.dumps({"id": req["id"], "results": results}), flush=True)
