"""English questions over German documents: does the query step's German query find the right document?

    python -m bench.german_documents build .cache/german-set       # 20 made-up German documents (PDFs too) and questions
    python -m bench.german_documents build .cache/german-mixed-set --english .cache/answer-trust/wiki-library.jsonl
                                                                   # the same among English articles (no PDFs)
    python /work/shared/bench/split_devset.py .cache/german-set    # tune/ and report/ halves (once, before tuning)
    nice -n 10 python -m bench.german_documents run .cache/german-set/tune --home .cache/eval/german-tune-home

`build` writes a BEIR folder (corpus.jsonl, queries.jsonl, qrels.tsv) and pdfs/, one generated PDF per
document. Everything in it is invented: four towns that do not exist (Kellerbach, Ostermoor, Lindhagen,
Grauwald), their pool, bakery, museum ..., and four appliances of a made-up maker (Tannhof). Several
documents share a town, and most questions do not name the town, so a question is found by what it asks
about (a pool, a bakery), in English words the German documents do not contain.

`run` scores, through the app's own eval (desktop_app/evaluation/runner.py), R@5 (the right document among
the top 5 fused passages' documents) for rag, fusion without the German query
(fusion+document_language_queries=false) and fusion, and the paired differences with bootstrap intervals.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# (id, title, German text, English question). The questions ask what one document says; most leave the town out.
DOCUMENTS: tuple[tuple[str, str, str, str], ...] = (
    ("freibad", "Freibad Kellerbach",
     "Das Freibad Kellerbach liegt am Südrand der Stadt neben dem Sportplatz. In der Badesaison von Mai bis September "
     "öffnet das Freibad täglich um sieben Uhr morgens und schließt um zwanzig Uhr. Das Schwimmerbecken ist fünfzig Meter "
     "lang, das Nichtschwimmerbecken hat eine Rutsche. Eine Tageskarte kostet für Erwachsene vier Euro, für Kinder zwei Euro. "
     "Bei Gewitter wird das Becken sofort geräumt.",
     "At what time does the outdoor swimming pool open in the morning during the season?"),
    ("baeckerei", "Bäckerei Sonnleitner, Kellerbach",
     "Die Bäckerei Sonnleitner am Marktplatz von Kellerbach backt seit drei Generationen. Jeden Morgen entstehen dort "
     "Roggenbrot, Dinkelbrötchen und Butterbrezeln. Montags ist die Bäckerei geschlossen, an allen anderen Tagen öffnet "
     "sie um sechs Uhr. Bestellungen für Hochzeitstorten nimmt die Bäckerei drei Wochen im Voraus an.",
     "On which day of the week is the bakery closed?"),
    ("fahrradverleih", "Fahrradverleih Kellerbach",
     "Am Bahnhof Kellerbach vermietet der Fahrradverleih Tourenräder, Kinderräder und Elektrofahrräder. Ein Tourenrad "
     "kostet zwölf Euro pro Tag, ein Elektrofahrrad fünfundzwanzig Euro pro Tag. Helme werden kostenlos ausgegeben. "
     "Die Räder müssen bis achtzehn Uhr zurückgegeben werden, sonst wird ein weiterer Tag berechnet.",
     "How much does renting an electric bicycle cost per day?"),
    ("bibliothek", "Stadtbibliothek Kellerbach",
     "Die Stadtbibliothek Kellerbach besitzt rund vierzigtausend Bücher, Hörbücher und Zeitschriften. Mit einem "
     "Leseausweis darf man höchstens fünfzehn Medien gleichzeitig ausleihen. Die Leihfrist beträgt vier Wochen und kann "
     "zweimal verlängert werden. Der Jahresausweis kostet zehn Euro, Schüler erhalten ihn umsonst.",
     "How many items can you borrow at the same time from the city library?"),
    ("feuerwehr", "Freiwillige Feuerwehr Ostermoor",
     "Die Freiwillige Feuerwehr Ostermoor wurde vor über hundert Jahren gegründet. Heute zählt sie achtundfünfzig aktive "
     "Mitglieder, darunter eine Jugendgruppe. Das Gerätehaus steht an der Deichstraße und beherbergt zwei Löschfahrzeuge "
     "und ein Boot für Einsätze bei Hochwasser. Geübt wird jeden zweiten Donnerstag.",
     "How many active members does the volunteer fire brigade have?"),
    ("wochenmarkt", "Wochenmarkt Ostermoor",
     "Auf dem Kirchplatz in Ostermoor findet jeden Mittwoch der Wochenmarkt statt. Bauern aus der Umgebung verkaufen "
     "Gemüse, Käse, Eier und Blumen. Der Markt beginnt um acht Uhr und endet um dreizehn Uhr. Im Dezember kommt samstags "
     "ein kleiner Weihnachtsmarkt hinzu.",
     "On which weekday is the farmers' market held?"),
    ("zahnarzt", "Zahnarztpraxis Dr. Hellwig, Ostermoor",
     "Die Zahnarztpraxis von Dr. Hellwig in Ostermoor behandelt Kinder und Erwachsene. Die Sprechstunden sind montags bis "
     "donnerstags von acht bis zwölf Uhr und von vierzehn bis achtzehn Uhr, freitags nur vormittags. Für Schmerzpatienten "
     "gibt es jeden Morgen eine offene Sprechstunde ohne Termin.",
     "When are the dentist's consultation hours on Fridays?"),
    ("muellabfuhr", "Abfallkalender Ostermoor",
     "In Ostermoor wird der Restmüll alle zwei Wochen abgeholt. Die Papiertonne wird einmal im Monat geleert, die gelbe "
     "Tonne für Verpackungen alle drei Wochen. Sperrmüll muss man telefonisch beim Bauhof anmelden. Die Tonnen müssen am "
     "Abholtag bis sechs Uhr am Straßenrand stehen.",
     "How often is the paper recycling bin emptied?"),
    ("museum", "Heimatmuseum Lindhagen",
     "Das Heimatmuseum Lindhagen zeigt alte Werkzeuge, Trachten und eine vollständig eingerichtete Dorfschule. Der "
     "Eintritt kostet drei Euro, mittwochs ist er frei. Das Museum ist von April bis Oktober an den Wochenenden geöffnet. "
     "Führungen für Schulklassen können das ganze Jahr gebucht werden.",
     "What is the admission price of the local history museum?"),
    ("tierheim", "Tierheim Lindhagen",
     "Das Tierheim Lindhagen kümmert sich um Hunde, Katzen und Kleintiere aus dem ganzen Landkreis. Zurzeit leben dort "
     "einundzwanzig Hunde und etwa vierzig Katzen. Wer einen Hund ausführen möchte, kann samstags zwischen zehn und "
     "zwölf Uhr vorbeikommen. Das Tierheim lebt zum großen Teil von Spenden.",
     "How many dogs are currently living at the animal shelter?"),
    ("kirche", "St.-Veits-Kirche Lindhagen",
     "Die St.-Veits-Kirche prägt das Ortsbild von Lindhagen. Ihr Kirchturm ist dreiundsechzig Meter hoch und wurde nach "
     "einem Blitzschlag im Jahr 1890 neu aufgebaut. Im Turm hängen vier Glocken, die größte wiegt zwei Tonnen. Von der "
     "Aussichtsplattform sieht man bei klarem Wetter bis zu den Bergen.",
     "How tall is the church tower?"),
    ("fussball", "SV Lindhagen, Jugendfußball",
     "Der Sportverein Lindhagen hat sechs Jugendmannschaften. Die D-Jugend trainiert dienstags und freitags von siebzehn "
     "bis achtzehn Uhr dreißig auf dem Rasenplatz. Neue Spielerinnen und Spieler dürfen jederzeit zu einem Probetraining "
     "kommen. Fußballschuhe mit Stollen sind Pflicht.",
     "On which days does the youth football team train?"),
    ("skilift", "Skilift Grauwald",
     "Der Skilift am Hang oberhalb von Grauwald ist achthundert Meter lang und überwindet zweihundert Höhenmeter. Er "
     "fährt bei ausreichend Schnee von neun bis sechzehn Uhr. Eine Tageskarte kostet achtzehn Euro. Abends wird die "
     "Piste zweimal pro Woche beleuchtet.",
     "How long is the ski lift?"),
    ("brauerei", "Brauerei Grauwald",
     "Die kleine Brauerei in Grauwald braut ein helles Lagerbier, ein Weizenbier und im Winter einen dunklen Bock. Das "
     "Wasser kommt aus einer eigenen Quelle im Wald. Jeden ersten Samstag im Monat gibt es eine Brauereiführung mit "
     "Verkostung. Im Biergarten finden zweihundert Gäste Platz.",
     "Which beer is brewed only in winter?"),
    ("camping", "Campingplatz am Grauwalder See",
     "Der Campingplatz am Grauwalder See hat hundertzwanzig Stellplätze für Zelte und Wohnwagen. Hunde sind an der Leine "
     "erlaubt. Die Rezeption ist von acht bis einundzwanzig Uhr besetzt. Duschen und ein kleiner Laden mit frischen "
     "Brötchen stehen allen Gästen zur Verfügung.",
     "How many pitches does the campsite by the lake have?"),
    ("bus", "Buslinie 7 Grauwald",
     "Die Buslinie 7 verbindet Grauwald mit dem Bahnhof der Kreisstadt. Werktags fährt der Bus jede halbe Stunde, am "
     "Wochenende nur stündlich. Die Fahrt dauert fünfundzwanzig Minuten. Fahrräder dürfen mitgenommen werden, wenn Platz ist.",
     "How often does the bus to the train station run on weekdays?"),
    ("maehroboter", "Tannhof Mähroboter M5",
     "Der Mähroboter M5 von Tannhof mäht Rasenflächen bis achthundert Quadratmeter. Er bewältigt Steigungen bis fünfunddreißig "
     "Prozent und fährt bei Regen selbstständig in seine Ladestation zurück. Die Schnitthöhe lässt sich zwischen zwei und "
     "sechs Zentimetern einstellen. Die Messer sollten jede Saison gewechselt werden.",
     "How steep a slope can the robotic lawn mower climb?"),
    ("kaffeeautomat", "Tannhof Kaffeevollautomat Bohnenstolz",
     "Der Kaffeevollautomat Bohnenstolz von Tannhof mahlt die Bohnen für jede Tasse frisch. Sein Wassertank fasst "
     "einskommasieben Liter, der Bohnenbehälter zweihundertfünfzig Gramm. Die Maschine entkalkt sich auf Knopfdruck und "
     "meldet, wenn der Tresterbehälter voll ist.",
     "How much water does the tank of the coffee machine hold?"),
    ("staubsauger", "Tannhof Akku-Staubsauger Wirbelfix",
     "Der Akku-Staubsauger Wirbelfix von Tannhof wiegt nur zwei Kilogramm. Mit vollem Akku saugt er bis zu fünfundvierzig "
     "Minuten, im Turbomodus etwa zwölf Minuten. Das Aufladen dauert vier Stunden. Der Filter kann unter fließendem Wasser "
     "ausgewaschen werden.",
     "How long does the battery of the cordless vacuum cleaner last?"),
    ("waschmaschine", "Tannhof Waschmaschine Schaumkrone 8",
     "Die Waschmaschine Schaumkrone 8 von Tannhof fasst acht Kilogramm Wäsche. Ein Waschgang im Eco-Programm verbraucht "
     "rund fünfundvierzig Liter Wasser. Die Schleuderdrehzahl beträgt bis zu vierzehnhundert Umdrehungen pro Minute. Eine "
     "Kindersicherung verhindert, dass die Tür während des Waschgangs geöffnet wird.",
     "How much water does one wash in the eco programme use?"),
)  # fmt: skip

MODES = "rag,fusion+document_language_queries=false,fusion"


def write_pdf(path: Path, title: str, text: str) -> None:
    import pymupdf

    document = pymupdf.open()
    page = document.new_page()
    page.insert_textbox(pymupdf.Rect(60, 60, 540, 100), title, fontsize=16, fontname="hebo")
    page.insert_textbox(pymupdf.Rect(60, 110, 540, 780), text, fontsize=11)
    document.set_metadata({"title": title})
    document.save(path)
    document.close()


def build(folder: Path, english: Path | None = None) -> None:
    """`english`: a corpus.jsonl of English records added to the library (a library mostly in English holding some
    German documents); the documents are then imported as texts, with no PDFs."""
    folder.mkdir(parents=True, exist_ok=True)
    if english is None:
        (folder / "pdfs").mkdir(exist_ok=True)
    with open(folder / "corpus.jsonl", "w", encoding="utf-8") as corpus, open(folder / "queries.jsonl", "w", encoding="utf-8") as queries:
        for number, (doc_id, title, text, question) in enumerate(DOCUMENTS, start=1):
            corpus.write(json.dumps({"_id": doc_id, "title": title, "text": text}, ensure_ascii=False) + "\n")
            queries.write(json.dumps({"_id": f"q{number:02}", "text": question}) + "\n")
            if english is None:
                write_pdf(folder / "pdfs" / f"{doc_id}.pdf", title, text)
        if english is not None:
            corpus.write(english.read_text(encoding="utf-8"))
    rows = [f"q{n:02}\t{doc_id}\t1" for n, (doc_id, *_) in enumerate(DOCUMENTS, start=1)]
    (folder / "qrels.tsv").write_text("query-id\tcorpus-id\tscore\n" + "\n".join(rows) + "\n")
    print(f"{len(DOCUMENTS)} documents and questions in {folder}; split it: python /work/shared/bench/split_devset.py {folder}")


def run(folder: Path, home: Path, modes: str) -> None:
    from desktop_app.cli import main as cli
    from bench.paired_difference import main as paired

    report = home / "german.json"
    code = cli(["eval", str(folder), "--modes", modes, "--home", str(home), "--json", str(report)])
    if code:
        sys.exit(code)
    data = json.loads(report.read_text())
    for summary in data["summaries"]:
        print(f"{summary['mode']:45} R@5 {summary['recall@5']:.3f}  (n={summary['n']})")
    paired([str(report), "--baseline", "fusion+document_language_queries=false", "--metrics", "recall@5"])
    paired([str(report), "--baseline", "rag", "--metrics", "recall@5"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("folder", type=Path)
    b.add_argument("--english", type=Path, help="a corpus.jsonl of English records to add to the library")
    r = sub.add_parser("run")
    r.add_argument("folder", type=Path, help="a half made by split_devset.py (tune/ or report/)")
    r.add_argument("--home", type=Path, required=True, help="the eval library's data folder")
    r.add_argument("--modes", default=MODES)
    args = parser.parse_args(argv)
    if args.command == "build":
        build(args.folder, args.english)
    else:
        run(args.folder, args.home, args.modes)


if __name__ == "__main__":
    main()
