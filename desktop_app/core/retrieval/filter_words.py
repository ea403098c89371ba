"""The words a question limits its search with, per language: the one table the filter grammar reads
(retrieval/question_filters.py). A language is added here, nowhere else.

Each entry is a list of regular-expression alternatives (matched case-insensitively, as whole words). The
grammar joins every language's words, so a question is read whatever language it is written in and a
language need not be detected first: "Seite 5" and "page 5" are both a page. A word in a script written without
spaces (Chinese, Japanese) needs no space after it ("在R-data.pdf中"), and Korean glues its particles to the word
before ("R-data.pdf에서"): the grammar reads those edges as word edges.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FilterWords:
    language: str
    # Before a file or a file type: "in R-data.pdf", "from the manual" (not "of": "the price of paper" is no file).
    places: tuple[str, ...]
    page_places: tuple[str, ...]  # before a page: "on page 5" (besides the places)
    # Before a file name with its extension only: "pages 3-4 of R-data.pdf".
    owner_places: tuple[str, ...]
    # Between the place and the name: "in the file R-data.pdf", "in my PDFs".
    articles: tuple[str, ...]
    # What a file is called: "the Word files", "PDF documents".
    file_nouns: tuple[str, ...]
    page_words: tuple[str, ...]  # "page 5", "pages 10-20", "p. 5", "pp. 10-20"
    range_joiners: tuple[str, ...]  # "pages 10 to 20" ("-" and dashes join in every language)
    # A file format (its name in formats.py) -> what a person calls its files. Plural forms stand alone
    # ("my PDFs"); a singular needs a file noun after it ("the Word files"), since "word" is also a word.
    formats_alone: dict[str, tuple[str, ...]] = field(default_factory=dict)
    formats_before_noun: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # After a file noun, where a language names the kind second: "los archivos Word", "les fichiers PDF".
    formats_after_noun: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Before a file type, a file the question talks about rather than the library's files: "save it to a text file".
    indefinite: tuple[str, ...] = ()
    added: tuple[str, ...] = ()  # "documents added this week"
    since: tuple[str, ...] = ()  # with or without "added": "since 2026-11-01"
    after: tuple[str, ...] = ()  # only after "added": "added after 2026-11-01"
    before: tuple[str, ...] = ()  # only after "added": "added before 2026-11-01"
    # Periods relative to now (question_filters.PERIODS names them): "this week" -> "this_week".
    periods: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # "in the last 7 days": the number is read between these.
    last_days: tuple[str, str] = ("", "")
    # After a file name, where a language puts its place there: "R-data.pdf中" (in), "R-data.pdfで", "R-data.pdf에서".
    after_places: tuple[str, ...] = ()
    # A page written around its number: "第3页" (before and after), "3ページに" (after, then one of `page_needs`: a bare
    # "3ページ" is as often "3 pages" as "page 3"). Without `page_needs`, the word before the number is required.
    page_before_number: tuple[str, ...] = ()
    page_after_number: tuple[str, ...] = ()
    page_needs: tuple[str, ...] = ()


_FORMAT_NOUNS = {"PDF": ("pdf",), "Word": ("word", "docx"), "HTML": ("html", "web"), "EPUB": ("epub",), "text": ("text", "txt"), "Markdown": ("markdown", "md")}

ENGLISH = FilterWords(
    language="en",
    places=("in", "from", "within", "inside", "among"),
    page_places=("on", "at"),
    owner_places=("of",),
    articles=("the", "my", "our", "your", "all", "all the", "all my", "this", "that", "these", "those", "file", "document"),
    file_nouns=("files?", "documents?", "docs?", "pages", "books?", "manuals?"),
    page_words=("pages?", "pp?\\.?", "pg\\.?"),
    range_joiners=("to", "through", "until", "and"),
    formats_alone={"PDF": ("pdfs",), "EPUB": ("epubs",), "HTML": ("web pages",)},
    formats_before_noun=_FORMAT_NOUNS,
    indefinite=("a", "an", "another", "one"),
    added=("added", "imported", "uploaded"),
    since=("since",),
    after=("after", "on or after"),
    before=("before",),
    periods={
        "today": ("today",),
        "yesterday": ("yesterday",),
        "this_week": ("this week",),
        "last_week": ("last week",),
        "this_month": ("this month",),
        "last_month": ("last month",),
    },
    last_days=("in the (?:last|past)", "days"),
)

GERMAN = FilterWords(
    language="de",
    places=("in", "im", "aus", "innerhalb"),
    page_places=("auf", "von"),
    owner_places=("von", "vom"),
    articles=("der", "die", "das", "den", "dem", "des", "meinen?", "meiner", "unseren?", "allen?", "datei", "dokument"),
    file_nouns=("dateien", "datei", "dokumente[n]?", "dokument", "handbüchern", "handbuch"),
    page_words=("seiten?", "s\\."),
    range_joiners=("bis",),
    formats_alone={"PDF": ("pdfs",)},
    formats_before_noun={"PDF": ("pdf",), "Word": ("word",), "HTML": ("html",), "EPUB": ("epub",), "text": ("text",), "Markdown": ("markdown",)},
    indefinite=("eine[mnrs]?", "ein"),
    added=("hinzugefügt(?:en)?", "importiert(?:en)?"),
    since=("seit",),
    after=("nach",),
    before=("vor",),
    periods={
        "today": ("heute",),
        "yesterday": ("gestern",),
        "this_week": ("diese woche",),
        "last_week": ("letzte woche",),
        "this_month": ("diesen monat",),
        "last_month": ("letzten monat",),
    },
    last_days=("in den letzten", "tagen"),
)

FRENCH = FilterWords(
    language="fr",
    places=("dans", "parmi"),
    page_places=("à", "en", "sur"),
    owner_places=("de", "du", "des"),
    articles=("le", "la", "les", "mon", "ma", "mes", "notre", "nos", "votre", "vos", "ce", "cette", "ces", "tous les", "toutes les", "fichier", "document"),
    file_nouns=("fichiers?", "documents?", "manuels?", "livres?"),
    page_words=("pages?",),
    range_joiners=("à", "et"),
    formats_after_noun={"PDF": ("pdf",), "Word": ("word",), "HTML": ("html",), "EPUB": ("epub",), "text": ("texte",), "Markdown": ("markdown",)},
    indefinite=("un", "une", "autre"),
    added=("ajouté(?:e?s?)", "importé(?:e?s?)"),
    since=("depuis",),
    after=("après",),
    before=("avant",),
    periods={
        "today": ("aujourd'hui", "aujourd’hui"),
        "yesterday": ("hier",),
        "this_week": ("cette semaine",),
        "last_week": ("la semaine dernière",),
        "this_month": ("ce mois-ci",),
        "last_month": ("le mois dernier",),
    },
    last_days=("(?:ces|les)", "derniers jours"),
)

SPANISH = FilterWords(
    language="es",
    places=("en", "entre", "dentro de"),
    page_places=(),
    owner_places=("de", "del"),
    articles=("el", "la", "los", "las", "mi", "mis", "nuestros?", "nuestras?", "sus?", "todos los", "todas las", "este", "esta", "estos", "estas", "archivo", "documento"),
    file_nouns=("archivos?", "ficheros?", "documentos?", "manuales", "manual", "libros?"),
    page_words=("páginas?", "paginas?", "pág\\.?"),
    range_joiners=("a", "al", "hasta", "y"),
    formats_after_noun={"PDF": ("pdf",), "Word": ("word",), "HTML": ("html",), "EPUB": ("epub",), "text": ("de texto",), "Markdown": ("markdown",)},
    indefinite=("una?", "otr[oa]"),
    added=("añadid[oa]s?", "agregad[oa]s?", "importad[oa]s?"),
    since=("desde",),
    after=("después de",),
    before=("antes de",),
    periods={
        "today": ("hoy",),
        "yesterday": ("ayer",),
        "this_week": ("esta semana",),
        "last_week": ("la semana pasada",),
        "this_month": ("este mes",),
        "last_month": ("el mes pasado",),
    },
    last_days=("en los últimos", "días"),
)

_RU_FORMATS = {"PDF": ("pdf",), "Word": ("word",), "HTML": ("html",), "EPUB": ("epub",)}
# Russian declines its nouns: "в файле" (in the file), "на странице" (on the page), "в PDF-файлах" (in PDF files);
# the forms a filter takes are listed. A file noun in the locative stands where other languages put an article.
RUSSIAN = FilterWords(
    language="ru",
    places=("в", "во", "из", "среди"),
    page_places=("на",),
    owner_places=(),
    articles=("файле", "файла", "документе", "документа", "мои", "моих", "моём", "моем", "нашем", "наших", "всех", "этом", "этих"),
    file_nouns=("файлах", "файлы", "файлов", "документах", "документы", "документов"),  # plural: "в файл PDF" is "into a PDF file"
    page_words=("страниц[аеыу]?", "страницах", "стр\\.?"),
    range_joiners=("по", "до", "и"),
    formats_before_noun=_RU_FORMATS,  # "PDF-файлы" and "файлы PDF" alike
    formats_after_noun=_RU_FORMATS,
    added=("добавленн(?:ые|ых)", "добавлен[аоы]?", "импортированн(?:ые|ых)"),
    since=("с",),
    after=("после",),
    before=("до",),
    periods={
        "today": ("сегодня",),
        "yesterday": ("вчера",),
        "this_week": ("на этой неделе", "за эту неделю"),
        "last_week": ("на прошлой неделе",),
        "this_month": ("в этом месяце", "за этот месяц"),
        "last_month": ("в прошлом месяце",),
    },
    last_days=("за последние", "дн(?:ей|я)"),
)

_CJK_FORMATS = {"PDF": ("pdf",), "Word": ("word", "docx"), "HTML": ("html",), "EPUB": ("epub",), "Markdown": ("markdown",)}
CHINESE = FilterWords(
    language="zh",
    places=("在", "从", "從", "于", "於"),
    page_places=(),
    owner_places=(),
    articles=("我的", "我们的", "我們的", "所有的?", "这些", "這些", "这个", "這個"),
    file_nouns=("文件", "文档", "文檔", "檔案"),
    page_words=(),
    range_joiners=("至", "到"),
    formats_before_noun={**_CJK_FORMATS, "text": ("文本", "txt")},
    indefinite=("一个", "一個", "另一个", "另一個"),
    after_places=("中", "里", "裡", "裏", "内", "內", "上", "的"),  # "第3页上" (on page 3)
    added=("添加的?", "导入的?", "導入的?", "加入的?", "上传的?", "上傳的?"),
    periods={
        "today": ("今天",),
        "yesterday": ("昨天",),
        "this_week": ("本周", "这周", "本週", "這週"),
        "last_week": ("上周", "上週"),
        "this_month": ("本月", "这个月", "這個月"),
        "last_month": ("上个月", "上個月"),
    },
    last_days=("最近", "天"),
    page_before_number=("第",),  # "3页" alone is as often "3 pages"
    page_after_number=("页", "頁"),
)

JAPANESE = FilterWords(
    language="ja",
    places=(),  # a place follows its name ("R-data.pdfで")
    page_places=(),
    owner_places=(),
    articles=("私の", "すべての", "全ての", "この", "これらの"),
    file_nouns=("ファイル", "文書", "ドキュメント"),
    page_words=(),
    range_joiners=("から",),
    formats_before_noun={**_CJK_FORMATS, "text": ("テキスト", "txt")},
    after_places=("の中で", "の中の", "では", "で", "の", "には", "に"),
    added=("追加した", "追加された", "取り込んだ", "インポートした"),
    periods={
        "today": ("今日",),
        "yesterday": ("昨日",),
        "this_week": ("今週",),
        "last_week": ("先週",),
        "this_month": ("今月",),
        "last_month": ("先月",),
    },
    last_days=("過去", "日間?"),
    page_before_number=("第",),
    page_after_number=("ページ目", "頁目", "ページ", "頁"),
    page_needs=("に", "で", "の", "を", "は", "から", "まで"),
)

KOREAN = FilterWords(
    language="ko",
    places=(),  # a place follows its name, glued ("R-data.pdf에서")
    page_places=(),
    owner_places=(),
    articles=("내", "모든", "이"),
    file_nouns=("파일", "문서"),
    page_words=(),
    range_joiners=(),  # "3~5페이지": a tilde joins in every language
    formats_before_noun={**_CJK_FORMATS, "text": ("텍스트", "txt")},
    after_places=("에서는", "에서", "에는", "의", "에"),
    added=("추가된", "추가한", "가져온"),
    periods={
        "today": ("오늘",),
        "yesterday": ("어제",),
        "this_week": ("이번 주", "이번주"),
        "last_week": ("지난 주", "지난주"),
        "this_month": ("이번 달", "이번달"),
        "last_month": ("지난 달", "지난달"),
    },
    last_days=("최근", "일"),
    page_after_number=("페이지", "쪽"),
    page_needs=("에", "의", "을", "를", "은", "는", "부터", "까지"),
)

LANGUAGES: tuple[FilterWords, ...] = (ENGLISH, GERMAN, FRENCH, SPANISH, RUSSIAN, CHINESE, JAPANESE, KOREAN)
