"""Build sets (c) and (d) of issue 30 from made-up documents (bench/made_up_world.py), already split.

    python -m bench.build_made_up_sets [--out .cache/answer-trust] [--seed 30]

(c) OUT/claims: labelled claim/citation pairs in English, German and Russian. For every fact of every document:
    the paraphrased claim cited to its own passage ("right") and to a similar passage of the same document that
    does not state it ("wrong"); for every document a claim joining two facts, cited to both passages ("right")
    and to one of them plus a sibling ("wrong"). BEIR layout: corpus.jsonl holds the passages, queries.jsonl the
    claims ({"_id", "text", "lang", "label", "joint"}), qrels.tsv the cited passages of each claim, in order.
(d) OUT/german: made-up German documents as PDFs (pdfs/, one document per file) and corpus.jsonl; each fact asked
    in German ("text") and in English ("text_en") with its answer ("answers"). qrels.tsv: the document.
    OUT/chinese: the same with made-up Chinese documents and questions (no spaces between words: word_pieces.py).

Each folder is then split into tune/ and report/ by ../shared/bench/split_devset.py (by a hash of the id, so a
German question and its English twin land in the same half), before anyone reads a question.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from .made_up_world import LANGUAGES, Document, documents

REPO = Path(__file__).resolve().parent.parent


def split_script() -> Path:
    """../shared/bench/split_devset.py, seen from the main checkout or from a worktree one level deeper."""
    for base in (REPO.parent, REPO.parent.parent):
        script = base / "shared" / "bench" / "split_devset.py"
        if script.exists():
            return script
    raise SystemExit("split_devset.py not found in ../shared/bench or ../../shared/bench")


def split(folder: Path) -> None:
    subprocess.run([sys.executable, str(split_script()), str(folder)], check=True)


def write_beir(folder: Path, corpus: list[dict], queries: list[dict], qrels: list[tuple[str, str]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "corpus.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in corpus)
    with open(folder / "queries.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(q, ensure_ascii=False) + "\n" for q in queries)
    with open(folder / "qrels.tsv", "w", encoding="utf-8") as f:
        f.write("query-id\tcorpus-id\tscore\n")
        f.writelines(f"{q}\t{d}\t1\n" for q, d in qrels)


def claim_pairs(docs: list[Document]) -> tuple[list[dict], list[dict], list[tuple[str, str]]]:
    corpus, queries, qrels = [], [], []
    for doc in docs:
        pid = {fact.key: f"{doc.id}-p{i}" for i, fact in enumerate(doc.facts)}
        corpus += [{"_id": pid[fact.key], "title": doc.title, "text": text} for fact, text in zip(doc.facts, doc.passages)]
        pairs = []
        for fact in doc.facts:
            pairs.append((f"{doc.id}-{fact.key}-right", fact.claim, "right", False, [pid[fact.key]]))
            pairs.append((f"{doc.id}-{fact.key}-wrong", fact.claim, "wrong", False, [pid[doc.confusable[fact.key]]]))
        claim, first, second = doc.joint
        pairs.append((f"{doc.id}-joint-right", claim, "right", True, [pid[first], pid[second]]))
        pairs.append((f"{doc.id}-joint-wrong", claim, "wrong", True, [pid[first], pid[doc.joint_wrong]]))
        for qid, text, label, joint, cited in pairs:
            queries.append({"_id": qid, "text": text, "lang": doc.lang, "label": label, "joint": joint})
            qrels += [(qid, p) for p in cited]
    return corpus, queries, qrels


def questions(docs: list[Document]) -> tuple[list[dict], list[dict], list[tuple[str, str]]]:
    """Each fact asked in its document's language ("text") and in English ("text_en")."""
    corpus = [{"_id": doc.id, "title": doc.title, "text": "\n\n".join(doc.passages)} for doc in docs]
    queries, qrels = [], []
    for doc in docs:
        for fact in doc.facts:
            qid = f"{doc.id}-{fact.key}"
            queries.append({"_id": qid, "text": fact.question, "text_en": fact.question_en, "answers": [fact.answer]})
            qrels.append((qid, doc.id))
    return corpus, queries, qrels


def write_pdfs(folder: Path, docs: list[Document]) -> None:
    """One PDF per document: its title, then each passage as a paragraph (DejaVu Sans when present, for umlauts;
    Chinese in PyMuPDF's built-in Chinese font, so no system font is needed)."""
    import pymupdf

    folder.mkdir(parents=True, exist_ok=True)
    font = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    for doc in docs:
        pdf = pymupdf.open()
        page = pdf.new_page()
        kwargs = {"fontname": "china-s"} if doc.lang == "zh" else {"fontname": "dejavu", "fontfile": str(font)} if font.exists() else {"fontname": "helv"}
        page.insert_text((56, 72), doc.title, fontsize=16, **kwargs)
        box = pymupdf.Rect(56, 100, page.rect.width - 56, page.rect.height - 56)
        left = page.insert_textbox(box, "\n\n".join(doc.passages), fontsize=11, **kwargs)
        if left < 0:
            raise SystemExit(f"{doc.id}: the text does not fit on one page")
        pdf.set_metadata({"title": doc.title})
        pdf.save(folder / f"{doc.id}.pdf")
        pdf.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=".cache/answer-trust")
    parser.add_argument("--per-kind", type=int, default=3, help="documents per kind (pump, town, person) and language for (c)")
    parser.add_argument("--german-per-kind", type=int, default=2, help="German documents per kind for (d)")
    parser.add_argument("--chinese-per-kind", type=int, default=2, help="Chinese documents per kind, asked like (d)")
    parser.add_argument("--seed", type=int, default=30, help="another seed gives other names and figures on the same templates (a fresh set)")
    args = parser.parse_args(argv)
    out = Path(args.out)

    claims_docs = [doc for lang in LANGUAGES for doc in documents(lang, args.per_kind, seed=args.seed, prefix="c")]
    corpus, queries, qrels = claim_pairs(claims_docs)
    write_beir(out / "claims", corpus, queries, qrels)
    print(f"claims: {len(queries)} pairs over {len(corpus)} passages of {len(claims_docs)} made-up documents")
    split(out / "claims")

    # (set, documents' language, documents per kind, id prefix, the questions' language when not the documents')
    for name, lang, per_kind, prefix, asked_in in (
        ("german", "de", args.german_per_kind, "g", ""),
        ("chinese", "zh", args.chinese_per_kind, "z", ""),
        ("english", "en", args.german_per_kind, "e", "de"),  # German questions over English documents
    ):
        docs = documents(lang, per_kind, seed=args.seed + 1, prefix=prefix, asked_in=asked_in)
        corpus, queries, qrels = questions(docs)
        write_beir(out / name, corpus, queries, qrels)
        write_pdfs(out / name / "pdfs", docs)
        print(f"{name}: {len(queries)} questions (in {asked_in or lang} and English) over {len(docs)} made-up PDFs in {lang}")
        split(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
