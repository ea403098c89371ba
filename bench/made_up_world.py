"""Made-up documents in English, German, Russian and Chinese: invented garden pumps, towns and people, each fact
stated in one passage, with a paraphrased claim of it and (German, Chinese) a question asking for it.

BENCHMARK DATA GENERATOR. Every name is built from random syllables (seeded), so no document, claim or question
exists anywhere else; nothing here may be copied into desktop_app/.

A document is a list of passages about one entity; each passage states one fact (plus a filler sentence that
states nothing asked), so every other passage of the same document is a "similar passage that does not state it".
Russian names decline (town "Велмор" -> "в Велморе", "Велмора"), German articles and nouns inflect between the
passage and the claim ("die Gartenpumpe" -> "der Gartenpumpe"), so a check matching word forms literally fails.
Numbers are chosen so the Russian noun after them always takes the genitive plural ("12 килограммов"). Chinese runs
its words together ("青安镇的镇长是王明远。"): a check that reads words between spaces sees none.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

LANGUAGES = ("en", "de", "ru", "zh")


@dataclass(frozen=True)
class Name:
    """A name with its Russian case forms (other languages use `nom` only)."""

    nom: str
    gen: str = ""
    dat: str = ""
    ins: str = ""
    prep: str = ""

    def __str__(self) -> str:
        return self.nom


@dataclass(frozen=True)
class Fact:
    key: str
    passage: str  # the sentence stating it, as the document says it
    claim: str  # the same fact in other words (and other word forms)
    answer: str  # what a correct answer must contain
    question: str = ""  # asked in the document's language (German and Chinese documents)
    question_en: str = ""  # the same question in English


@dataclass(frozen=True)
class Document:
    id: str
    lang: str
    kind: str
    title: str
    facts: tuple[Fact, ...]
    passages: tuple[str, ...]  # passage i states facts[i]
    joint: tuple[str, str, str] = ("", "", "")  # (claim joining two facts, key of fact 1, key of fact 2)
    joint_wrong: str = ""  # key of the fact whose passage replaces fact 2's in the wrong citation
    confusable: dict[str, str] = field(default_factory=dict)  # fact key -> the sibling passage a wrong citation points at


LATIN_ONSETS = ("br", "v", "l", "m", "t", "d", "st", "kr", "r", "n", "s", "g", "f", "h", "k", "p", "tr", "gr")
LATIN_VOWELS = ("a", "e", "i", "o", "u", "au", "ei")
LATIN_CODAS = ("n", "r", "l", "m", "s", "th", "rk", "nd", "lt")
CYR_ONSETS = ("бр", "в", "л", "м", "т", "д", "ст", "кр", "р", "н", "с", "г", "ф", "з", "п", "тр")
CYR_VOWELS = ("а", "о", "е", "и", "у")
CYR_CODAS = ("н", "р", "л", "м", "с", "д", "т", "в")
HAN_NAME_CHARS = "安平青河山林泉石云桥湖溪松梅岭远宁华明清文德永新春秋金玉"
HAN_SURNAMES = "王李张刘陈杨赵黄周吴徐孙胡朱高何郭马罗"


class Namer:
    """Invented names, never the same one twice in a run."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[str] = set()

    def _fresh(self, make) -> str:
        while True:
            word = make()
            if word not in self.used and 4 <= len(word) <= 11:
                self.used.add(word)
                return word

    def latin(self) -> str:
        r = self.rng
        return self._fresh(lambda: "".join(r.choice(part) for part in (LATIN_ONSETS, LATIN_VOWELS, LATIN_ONSETS, LATIN_VOWELS, LATIN_CODAS)).capitalize())

    def cyrillic_stem(self) -> str:
        r = self.rng
        return self._fresh(lambda: r.choice(CYR_ONSETS) + r.choice(CYR_VOWELS) + r.choice(CYR_ONSETS) + r.choice(CYR_VOWELS) + r.choice(CYR_CODAS))

    def han(self, length: int, suffix: str = "") -> str:
        """A Chinese name: `length` characters of HAN_NAME_CHARS, then `suffix` ("镇": a town)."""
        while True:
            word = "".join(self.rng.choice(HAN_NAME_CHARS) for _ in range(length)) + suffix
            if word not in self.used:
                self.used.add(word)
                return word

    def product(self) -> Name:
        return Name(f"{self.latin()} {self.rng.choice('KMRTVX')}{self.rng.randint(2, 9)}")

    def town(self, lang: str) -> Name:
        if lang == "zh":
            return Name(self.han(2, "镇"))
        if lang != "ru":
            return Name(self.latin())
        s = self.cyrillic_stem().capitalize()
        return Name(s, s + "а", s + "у", s + "ом", s + "е")

    def river(self, lang: str) -> Name:
        if lang == "zh":
            return Name(self.han(2, "河"))
        if lang != "ru":
            return Name(self.latin()[:-1] + "a")
        s = self.cyrillic_stem().capitalize()
        return Name(s + "а", s + "ы", s + "е", s + "ой", s + "е")

    def person(self, lang: str) -> Name:
        if lang == "zh":
            return Name(self.rng.choice(HAN_SURNAMES) + self.han(2))
        if lang != "ru":
            return Name(f"{self.latin()} {self.latin()}")
        first = self.cyrillic_stem().capitalize()
        last = (self.cyrillic_stem() + self.rng.choice(("ин", "ов"))).capitalize()
        return Name(f"{first} {last}", f"{first}а {last}а", f"{first}у {last}у", f"{first}ом {last}ым", f"{first}е {last}е")

    def word(self, lang: str = "en") -> str:
        return self.han(3) if lang == "zh" else self.latin()

    def number(self, low: int, high: int) -> int:
        """A number whose Russian noun is genitive plural: last digit 0 or 5-9, or 11-14."""
        while True:
            n = self.rng.randint(low, high)
            if n % 10 in (0, 5, 6, 7, 8, 9) or 11 <= n % 100 <= 14:
                return n


FILLERS = {
    "product": {
        "en": [
            "Its housing is made of grey plastic.", "It is meant for small gardens and ponds.", "A carrying handle sits on top.",
            "Spare filters are sold separately.", "The manual covers cleaning and winter storage.",
        ],
        "de": [
            "Das Gehäuse besteht aus grauem Kunststoff.", "Sie ist für kleine Gärten und Teiche gedacht.", "Oben sitzt ein Tragegriff.",
            "Ersatzfilter gibt es einzeln zu kaufen.", "Die Anleitung erklärt Reinigung und Lagerung im Winter.",
        ],
        "ru": [
            "Корпус сделан из серого пластика.", "Он предназначен для небольших садов и прудов.", "Сверху есть ручка для переноски.",
            "Запасные фильтры продаются отдельно.", "В инструкции описаны чистка и хранение зимой.",
        ],
        "zh": ["它的外壳由灰色塑料制成。", "它适合小花园和池塘使用。", "顶部有一个提手。", "备用滤网需要另外购买。", "说明书介绍了清洁和冬季存放的方法。"],
    },
    "town": {
        "en": [
            "The old market square is paved with cobblestones.", "A weekly market is held on Saturdays.", "Many houses have red tiled roofs.",
            "The railway station lies east of the centre.", "Visitors often walk along the old town wall.",
        ],
        "de": [
            "Der alte Marktplatz ist mit Kopfsteinpflaster belegt.", "Samstags findet ein Wochenmarkt statt.", "Viele Häuser haben rote Ziegeldächer.",
            "Der Bahnhof liegt östlich des Zentrums.", "Besucher spazieren gern an der alten Stadtmauer entlang.",
        ],
        "ru": [
            "Старая рыночная площадь вымощена булыжником.", "По субботам работает рынок.", "У многих домов красные черепичные крыши.",
            "Вокзал находится к востоку от центра.", "Гости часто гуляют вдоль старой городской стены.",
        ],
        "zh": ["老市场广场铺着鹅卵石。", "每周六有集市。", "许多房子都有红色的瓦屋顶。", "火车站位于市中心的东边。", "游客常常沿着古城墙散步。"],
    },
    "person": {
        "en": [
            "Colleagues describe a patient and careful worker.", "Long walks were a lifelong habit.",
            "Letters from those years survive in a small archive.", "Friends remember a quiet sense of humour.",
            "Music was a frequent pastime in the evenings.",
        ],
        "de": [
            "Kollegen beschreiben einen geduldigen und sorgfältigen Arbeiter.", "Lange Spaziergänge blieben eine lebenslange Gewohnheit.",
            "Briefe aus jenen Jahren liegen in einem kleinen Archiv.", "Freunde erinnern sich an einen leisen Humor.", "Abends wurde oft musiziert.",
        ],
        "ru": [
            "Коллеги описывают терпеливого и аккуратного работника.", "Долгие прогулки остались привычкой на всю жизнь.",
            "Письма тех лет хранятся в небольшом архиве.", "Друзья вспоминают тихое чувство юмора.", "По вечерам часто звучала музыка.",
        ],
        "zh": ["同事们说这是一位耐心细致的人。", "长距离散步是一生的习惯。", "那些年的信件保存在一个小档案馆里。", "朋友们记得那种安静的幽默感。", "晚上常常演奏音乐。"],
    },
}


# kind -> language -> (fact key, passage, claim, answer[, German question, English question]) ..., then ("joint", claim
# joining two facts). Fields name the document's values (`values`); a Russian name picks its case: {t.prep}.
TEMPLATES = {
    "product": {
        "en": (
            ("weight", "The {p} garden pump weighs {weight} kilograms without its hose.",
             "Without the hose, the {p} pump has a weight of {weight} kilograms.", "{weight}"),
            ("runtime", "On one battery charge the {p} garden pump runs for {hours} hours.",
             "The battery of the {p} pump lasts {hours} hours per charge.", "{hours}"),
            ("designer", "The {p} garden pump was designed by {designer} in {year}.", "{designer} is the designer of the {p} pump.", "{designer}"),
            ("factory", "The {p} garden pump is assembled in a factory in {factory}.", "The {p} pump is built in {factory}.", "{factory}"),
            ("price", "In shops the {p} garden pump sells for {price} euros.", "The {p} pump costs {price} euros.", "{price}"),
            ("joint", "The {p} pump weighs {weight} kilograms and costs {price} euros."),
        ),
        "de": (
            ("weight", "Die Gartenpumpe {p} wiegt ohne Schlauch {weight} Kilogramm.",
             "Das Gewicht der Gartenpumpe {p} ohne Schlauch beträgt {weight} Kilogramm.", "{weight}", "Wie viel wiegt die Gartenpumpe {p}?",
             "How much does the {p} garden pump weigh?"),
            ("runtime", "Mit einer Akkuladung läuft die Gartenpumpe {p} {hours} Stunden lang.",
             "Der Akku der Gartenpumpe {p} hält pro Ladung {hours} Stunden.", "{hours}", "Wie lange läuft die Gartenpumpe {p} mit einer Akkuladung?",
             "How long does the {p} garden pump run on one battery charge?"),
            ("designer", "Entworfen wurde die Gartenpumpe {p} im Jahr {year} von {designer}.",
             "{designer} hat die Gartenpumpe {p} entworfen.", "{designer}", "Wer hat die Gartenpumpe {p} entworfen?",
             "Who designed the {p} garden pump?"),
            ("factory", "Die Gartenpumpe {p} wird in einem Werk in {factory} zusammengebaut.",
             "Gebaut wird die Gartenpumpe {p} im Werk von {factory}.", "{factory}", "In welcher Stadt wird die Gartenpumpe {p} gebaut?",
             "In which town is the {p} garden pump built?"),
            ("price", "Im Handel kostet die Gartenpumpe {p} {price} Euro.",
             "Der Preis der Gartenpumpe {p} liegt bei {price} Euro.", "{price}", "Was kostet die Gartenpumpe {p}?",
             "How much does the {p} garden pump cost?"),
            ("joint", "Die Gartenpumpe {p} wiegt {weight} Kilogramm und kostet {price} Euro."),
        ),
        "ru": (
            ("weight", "Садовый насос {p} весит {weight} килограммов без шланга.",
             "Вес садового насоса {p} без шланга составляет {weight} килограммов.", "{weight}"),
            ("runtime", "На одном заряде аккумулятора садовый насос {p} работает {hours} часов.",
             "Аккумулятора насоса {p} хватает на {hours} часов работы.", "{hours}"),
            ("designer", "Садовый насос {p} в {year} году спроектировал {designer.nom}.", "Насос {p} был спроектирован {designer.ins}.", "{designer.nom}"),
            ("factory", "Садовый насос {p} собирают на заводе в {factory.prep}.", "{factory.nom} — город, где производят насос {p}.", "{factory.nom}"),
            ("price", "В магазинах садовый насос {p} стоит {price} евро.", "Цена насоса {p} — {price} евро.", "{price}"),
            ("joint", "Насос {p} весит {weight} килограммов и стоит {price} евро."),
        ),
        "zh": (
            ("weight", "{p}花园水泵不带水管时重{weight}公斤。", "不含水管，{p}水泵的重量是{weight}公斤。", "{weight}",
             "{p}花园水泵有多重？", "How much does the {p} garden pump weigh?"),
            ("runtime", "{p}花园水泵充一次电可以运行{hours}小时。", "{p}水泵的电池每次充电能用{hours}小时。", "{hours}",
             "{p}花园水泵充一次电能运行多久？", "How long does the {p} garden pump run on one battery charge?"),
            ("designer", "{p}花园水泵由{designer}于{year}年设计。", "{designer}是{p}水泵的设计者。", "{designer}",
             "谁设计了{p}花园水泵？", "Who designed the {p} garden pump?"),
            ("factory", "{p}花园水泵在{factory}的一家工厂组装。", "{p}水泵是在{factory}生产的。", "{factory}",
             "{p}花园水泵是在哪个镇生产的？", "In which town is the {p} garden pump built?"),
            ("price", "{p}花园水泵在商店里售价{price}欧元。", "{p}水泵的价格是{price}欧元。", "{price}",
             "{p}花园水泵多少钱？", "How much does the {p} garden pump cost?"),
            ("joint", "{p}水泵重{weight}公斤，售价{price}欧元。"),
        ),
    },
    "town": {
        "en": (
            ("founded", "{t} was founded by fishermen in {founded}.", "The town of {t} dates back to {founded}.", "{founded}"),
            ("population", "Today {t} has {people} inhabitants.", "{people} people live in the town of {t}.", "{people}"),
            ("river", "{t} lies on the banks of the river {river}.", "The {river} flows through {t}.", "{river}"),
            ("mayor", "The mayor of {t} is {mayor}.", "{mayor} serves as the town's mayor in {t}.", "{mayor}"),
            ("twin", "Since {since}, {t} has been twinned with {twin}.", "{twin} is a twin town of {t}.", "{twin}"),
            ("joint", "{t}, founded in {founded}, lies on the {river}."),
        ),
        "de": (
            ("founded", "{t} wurde im Jahr {founded} von Fischern gegründet.",
             "Die Gründung der Stadt {t} erfolgte {founded}.", "{founded}", "Wann wurde {t} gegründet?", "When was {t} founded?"),
            ("population", "Heute zählt {t} {people} Einwohner.",
             "In der Stadt {t} leben {people} Menschen.", "{people}", "Wie viele Einwohner hat {t}?", "How many inhabitants does {t} have?"),
            ("river", "{t} liegt am Ufer der {river}.",
             "Durch die Stadt {t} fließt die {river}.", "{river}", "An welchem Fluss liegt {t}?", "Which river does {t} lie on?"),
            ("mayor", "Bürgermeister von {t} ist {mayor}.",
             "Die Stadt {t} wird von {mayor} als Bürgermeister geführt.", "{mayor}", "Wer ist der Bürgermeister von {t}?", "Who is the mayor of {t}?"),
            ("twin", "Seit {since} ist {t} mit {twin} verschwistert.",
             "{twin} ist eine Partnerstadt von {t}.", "{twin}", "Mit welcher Stadt ist {t} verschwistert?", "Which town is {t} twinned with?"),
            ("joint", "Das {founded} gegründete {t} liegt an der {river}."),
        ),
        "ru": (
            ("founded", "{t.nom} был основан рыбаками в {founded} году.", "Основание города {t.gen} относится к {founded} году.", "{founded}"),
            ("population", "Сегодня в {t.prep} проживает {people} человек.", "Население {t.gen} составляет {people} человек.", "{people}"),
            ("river", "{t.nom} стоит на берегу реки {river.gen}.", "Через {t.nom} протекает река {river.nom}.", "{river.nom}"),
            ("mayor", "Мэром {t.gen} является {mayor.nom}.", "Городом {t.ins} руководит мэр {mayor.nom}.", "{mayor.nom}"),
            ("twin", "С {since} года {t.nom} является побратимом {twin.gen}.", "{twin.nom} и {t.nom} — города-побратимы.", "{twin.nom}"),
            ("joint", "Основанный в {founded} году {t.nom} стоит на реке {river.prep}."),
        ),
        "zh": (
            ("founded", "{t}由渔民于{founded}年建立。", "{t}的历史可以追溯到{founded}年。", "{founded}",
             "{t}是哪一年建立的？", "When was {t} founded?"),
            ("population", "如今{t}有{people}名居民。", "{t}的人口为{people}人。", "{people}",
             "{t}有多少居民？", "How many inhabitants does {t} have?"),
            ("river", "{t}坐落在{river}的岸边。", "{river}流经{t}。", "{river}",
             "{t}坐落在哪条河边？", "Which river does {t} lie on?"),
            ("mayor", "{t}的镇长是{mayor}。", "{mayor}担任{t}的镇长。", "{mayor}",
             "{t}的镇长是谁？", "Who is the mayor of {t}?"),
            ("twin", "自{since}年起，{t}与{twin}结为友好城镇。", "{twin}是{t}的友好城镇。", "{twin}",
             "{t}的友好城镇是哪个？", "Which town is {t} twinned with?"),
            ("joint", "{t}建于{founded}年，位于{river}畔。"),
        ),
    },
    "person": {
        "en": (
            ("born_year", "{n} was born in {born} into a family of clockmakers.", "{n}'s year of birth is {born}.", "{born}"),
            ("birthplace", "{n} was born in the town of {birthplace}.", "{n} is a native of {birthplace}.", "{birthplace}"),
            ("company", "In {founded}, {n} founded the firm {company}.", "The firm {company} was founded by {n}.", "{company}"),
            ("book", "{n} wrote a book called {book}.", "The book {book} is by {n}.", "{book}"),
            ("prize", "{n} received the {medal} Medal in {awarded}.", "{n} was awarded the {medal} Medal in {awarded}.", "{awarded}"),
            ("joint", "{n}, born in {birthplace}, founded the firm {company}."),
        ),
        "de": (
            ("born_year", "{n} kam im Jahr {born} in einer Uhrmacherfamilie zur Welt.",
             "Das Geburtsjahr von {n} ist {born}.", "{born}", "In welchem Jahr wurde {n} geboren?", "In what year was {n} born?"),
            ("birthplace", "Geboren wurde {n} in der Stadt {birthplace}.",
             "{n} stammt aus {birthplace}.", "{birthplace}", "Wo wurde {n} geboren?", "Where was {n} born?"),
            ("company", "Im Jahr {founded} gründete {n} die Firma {company}.",
             "{n} ist der Gründer der Firma {company}.", "{company}", "Welche Firma hat {n} gegründet?", "Which firm did {n} found?"),
            ("book", "{n} schrieb ein Buch mit dem Titel {book}.",
             "Das Buch {book} stammt von {n}.", "{book}", "Welches Buch hat {n} geschrieben?", "Which book did {n} write?"),
            ("prize", "Im Jahr {awarded} erhielt {n} die {medal}-Medaille.",
             "{n} wurde {awarded} mit der {medal}-Medaille ausgezeichnet.", "{awarded}", "In welchem Jahr erhielt {n} die {medal}-Medaille?",
             "In what year did {n} receive the {medal} Medal?"),
            ("joint", "Der in {birthplace} geborene {n} gründete die Firma {company}."),
        ),
        "ru": (
            ("born_year", "{n.nom} родился в {born} году в семье часовщиков.", "Год рождения {n.gen} — {born}.", "{born}"),
            ("birthplace", "{n.nom} родился в городе {birthplace.prep}.", "Родной город {n.gen} — {birthplace.nom}.", "{birthplace.nom}"),
            ("company", "В {founded} году {n.nom} основал фирму «{company}».", "Фирма «{company}» была основана {n.ins}.", "{company}"),
            ("book", "{n.nom} написал книгу «{book}».", "Книга «{book}» написана {n.ins}.", "{book}"),
            ("prize", "В {awarded} году {n.nom} получил медаль {medal}.", "{n.dat} вручили медаль {medal} в {awarded} году.", "{awarded}"),
            ("joint", "Уроженец {birthplace.gen} {n.nom} основал фирму «{company}»."),
        ),
        "zh": (
            ("born_year", "{n}于{born}年出生在一个钟表匠家庭。", "{n}的出生年份是{born}年。", "{born}",
             "{n}是哪一年出生的？", "In what year was {n} born?"),
            ("birthplace", "{n}出生于{birthplace}。", "{n}是{birthplace}人。", "{birthplace}",
             "{n}出生在哪里？", "Where was {n} born?"),
            ("company", "{founded}年，{n}创办了{company}公司。", "{company}公司是由{n}创立的。", "{company}",
             "{n}创办了哪家公司？", "Which firm did {n} found?"),
            ("book", "{n}写了一本名为《{book}》的书。", "《{book}》这本书的作者是{n}。", "{book}",
             "{n}写了哪本书？", "Which book did {n} write?"),
            ("prize", "{n}于{awarded}年获得{medal}奖章。", "{n}在{awarded}年被授予{medal}奖章。", "{awarded}",
             "{n}是哪一年获得{medal}奖章的？", "In what year did {n} receive the {medal} Medal?"),
            ("joint", "出生于{birthplace}的{n}创办了{company}公司。"),
        ),
    },
}


@dataclass(frozen=True)
class Shape:
    """How a kind's document is measured: its title, which facts the joint claim joins, and the sibling passage a
    wrong citation points at (a year for a year, a name for a name)."""

    title: str
    joint: tuple[str, str]
    joint_wrong: str
    confusable: dict[str, str]


SHAPES = {
    "product": Shape("p", ("weight", "price"), "runtime",
        {"weight": "price", "runtime": "weight", "designer": "factory", "factory": "designer", "price": "weight"}),
    "town": Shape("t", ("founded", "river"), "mayor",
        {"founded": "population", "population": "founded", "river": "twin", "mayor": "twin", "twin": "river"}),
    "person": Shape("n", ("birthplace", "company"), "book",
        {"born_year": "prize", "birthplace": "born_year", "company": "book", "book": "company", "prize": "born_year"}),
}


def values(kind: str, lang: str, names: Namer) -> dict[str, object]:
    """The made-up values one document states (drawn in a fixed order, so a seed gives the same documents)."""
    rng = names.rng
    if kind == "product":
        v = {"p": names.product(), "weight": names.number(5, 40), "hours": names.number(5, 30), "price": names.number(60, 900)}
        v.update(designer=names.person(lang), factory=names.town(lang))
        v["year"] = rng.randint(1995, 2022)
    elif kind == "town":
        v = {"t": names.town(lang), "river": names.river(lang), "mayor": names.person(lang), "twin": names.town(lang)}
        v.update(founded=rng.randint(1150, 1890), people=names.number(1200, 9800), since=rng.randint(1955, 2015))
    else:
        v = {"n": names.person(lang), "birthplace": names.town(lang), "company": names.word(lang), "book": names.word(lang), "medal": names.word(lang)}
        v.update(born=rng.randint(1901, 1960), founded=rng.randint(1965, 1990))
        v["awarded"] = v["founded"] + rng.randint(3, 20)
    return v


def document(doc_id: str, kind: str, lang: str, names: Namer, asked_in: str = "") -> Document:
    """`asked_in`: the language whose questions (and their English twins) each fact is asked with, when not the
    document's own (German questions over English documents)."""
    v = values(kind, lang, names)
    *rows, (_, joint) = TEMPLATES[kind][lang]
    facts = tuple(Fact(key, *(text.format(**v) for text in texts)) for key, *texts in rows)
    if asked_in:
        asked = {key: texts[-2:] for key, *texts in TEMPLATES[kind][asked_in][:-1]}
        facts = tuple(replace(f, question=asked[f.key][0].format(**v), question_en=asked[f.key][1].format(**v)) for f in facts)
    fillers = names.rng.sample(FILLERS[kind][lang], len(facts))
    passages = tuple(f"{fact.passage} {filler}" for fact, filler in zip(facts, fillers))
    shape = SHAPES[kind]
    return Document(doc_id, lang, kind, str(v[shape.title]), facts, passages, (joint.format(**v), *shape.joint), shape.joint_wrong, shape.confusable)


def documents(lang: str, per_kind: int, seed: int, prefix: str, asked_in: str = "") -> list[Document]:
    names = Namer(random.Random(f"{seed}-{lang}{asked_in}"))
    return [document(f"{prefix}{lang}-{kind}{i}", kind, lang, names, asked_in) for i in range(per_kind) for kind in TEMPLATES]
