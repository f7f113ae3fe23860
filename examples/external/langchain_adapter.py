"""An HTTP adapter for `spanproof run --retriever-url http://127.0.0.1:8765/retrieve` (docs/external.md):
serves any LangChain-style retriever (an object with `.invoke(question) -> [Document]`, each with
`page_content` and `metadata["source"]`) with Python's standard library. Passages are sent as `text`;
Spanproof aligns each to its document and reports the similarity. Edit `build_retriever()`."""
import json
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def build_retriever():
    # Your pipeline, e.g.:
    #   from langchain_community.vectorstores import FAISS
    #   return FAISS.load_local("index", embeddings, allow_dangerous_deserialization=True).as_retriever(search_kwargs={"k": 20})
    raise SystemExit("edit build_retriever() in langchain_adapter.py to return your retriever")


RETRIEVER = build_retriever()
ROOT = os.path.abspath(os.environ.get("SPANPROOF_WORKSPACE", "."))  # the folder given to spanproof --workspace


def source_of(doc):
    """The document's path relative to the Spanproof workspace, with forward slashes."""
    return os.path.relpath(os.path.abspath(doc.metadata["source"]), ROOT).replace(os.sep, "/")


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        req = json.loads(self.rfile.read(int(self.headers["content-length"])))
        docs = RETRIEVER.invoke(req["question"])[: req["k"]]
        body = json.dumps({"results": [{"source": source_of(d), "text": d.page_content} for d in docs]}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", 8765), Handler).serve_forever()
