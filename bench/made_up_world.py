"""Made-up documents in English, German and Russian: invented garden pumps, towns and people, each fact stated in
one passage, with a paraphrased claim of it and (English and German) a question asking for it.

BENCHMARK DATA GENERATOR. Every name is built from random syllables (seeded), so no document, claim or question
exists anywhere else; nothing here may be copied into desktop_app/.

A document is a list of passages about one entity; each passage states one fact (plus a filler sentence that
states nothing asked), so every other passage of the same document is a "similar passage that does not state it".
Russian names decline (town "Велмор" -> "в Велморе", "Велмора"), German articles and nouns inflect between the
passage and the claim ("die Gartenpumpe" -> "der Gartenpumpe"), so a check matching word forms literally fails.
Numbers are chosen so the Russian noun after them always takes the genitive plural ("12 килограммов").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

LANGUAGES = ("en", "de", "ru")


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
    question_de: str = ""
    question_en: str = ""


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
        return self._fresh(lambda: (r.choice(LATIN_ONSETS) + r.choice(LATIN_VOWELS) + r.choice(LATIN_ONSETS) + r.choice(LATIN_VOWELS) + r.choice(LATIN_CODAS)).capitalize())

    def cyrillic_stem(self) -> str:
        r = self.rng
        return self._fresh(lambda: r.choice(CYR_ONSETS) + r.choice(CYR_VOWELS) + r.choice(CYR_ONSETS) + r.choice(CYR_VOWELS) + r.choice(CYR_CODAS))

    def product(self) -> Name:
        return Name(f"{self.latin()} {self.rng.choice('KMRTVX')}{self.rng.randint(2, 9)}")

    def town(self, lang: str) -> Name:
        if lang != "ru":
            return Name(self.latin())
        s = self.cyrillic_stem().capitalize()
        return Name(s, s + "а", s + "у", s + "ом", s + "е")

    def river(self, lang: str) -> Name:
        if lang != "ru":
            return Name(self.latin()[:-1] + "a")
        s = self.cyrillic_stem().capitalize()
        return Name(s + "а", s + "ы", s + "е", s + "ой", s + "е")

    def person(self, lang: str) -> Name:
        if lang != "ru":
            return Name(f"{self.latin()} {self.latin()}")
        first = self.cyrillic_stem().capitalize()
        last = (self.cyrillic_stem() + self.rng.choice(("ин", "ов"))).capitalize()
        return Name(f"{first} {last}", f"{first}а {last}а", f"{first}у {last}у", f"{first}ом {last}ым", f"{first}е {last}е")

    def word(self) -> str:
        return self.latin()

    def number(self, low: int, high: int) -> int:
        """A number whose Russian noun is genitive plural: last digit 0 or 5-9, or 11-14."""
        while True:
            n = self.rng.randint(low, high)
            if n % 10 in (0, 5, 6, 7, 8, 9) or 11 <= n % 100 <= 14:
                return n


FILLERS = {
    "product": {
        "en": ["Its housing is made of grey plastic.", "It is meant for small gardens and ponds.", "A carrying handle sits on top.", "Spare filters are sold separately.", "The manual covers cleaning and winter storage."],
        "de": ["Das Gehäuse besteht aus grauem Kunststoff.", "Sie ist für kleine Gärten und Teiche gedacht.", "Oben sitzt ein Tragegriff.", "Ersatzfilter gibt es einzeln zu kaufen.", "Die Anleitung erklärt Reinigung und Lagerung im Winter."],
        "ru": ["Корпус сделан из серого пластика.", "Он предназначен для небольших садов и прудов.", "Сверху есть ручка для переноски.", "Запасные фильтры продаются отдельно.", "В инструкции описаны чистка и хранение зимой."],
    },
    "town": {
        "en": ["The old market square is paved with cobblestones.", "A weekly market is held on Saturdays.", "Many houses have red tiled roofs.", "The railway station lies east of the centre.", "Visitors often walk along the old town wall."],
        "de": ["Der alte Marktplatz ist mit Kopfsteinpflaster belegt.", "Samstags findet ein Wochenmarkt statt.", "Viele Häuser haben rote Ziegeldächer.", "Der Bahnhof liegt östlich des Zentrums.", "Besucher spazieren gern an der alten Stadtmauer entlang."],
        "ru": ["Старая рыночная площадь вымощена булыжником.", "По субботам работает рынок.", "У многих домов красные черепичные крыши.", "Вокзал находится к востоку от центра.", "Гости часто гуляют вдоль старой городской стены."],
    },
    "person": {
        "en": ["Colleagues describe a patient and careful worker.", "Long walks were a lifelong habit.", "Letters from those years survive in a small archive.", "Friends remember a quiet sense of humour.", "Music was a frequent pastime in the evenings."],
        "de": ["Kollegen beschreiben einen geduldigen und sorgfältigen Arbeiter.", "Lange Spaziergänge blieben eine lebenslange Gewohnheit.", "Briefe aus jenen Jahren liegen in einem kleinen Archiv.", "Freunde erinnern sich an einen leisen Humor.", "Abends wurde oft musiziert."],
        "ru": ["Коллеги описывают терпеливого и аккуратного работника.", "Долгие прогулки остались привычкой на всю жизнь.", "Письма тех лет хранятся в небольшом архиве.", "Друзья вспоминают тихое чувство юмора.", "По вечерам часто звучала музыка."],
    },
}


def product_document(doc_id: str, lang: str, names: Namer) -> Document:
    p = names.product()
    weight, hours, price = names.number(5, 40), names.number(5, 30), names.number(60, 900)
    designer, factory = names.person(lang), names.town(lang)
    year = names.rng.randint(1995, 2022)
    if lang == "en":
        facts = [
            Fact("weight", f"The {p} garden pump weighs {weight} kilograms without its hose.", f"Without the hose, the {p} pump has a weight of {weight} kilograms.", str(weight)),
            Fact("runtime", f"On one battery charge the {p} garden pump runs for {hours} hours.", f"The battery of the {p} pump lasts {hours} hours per charge.", str(hours)),
            Fact("designer", f"The {p} garden pump was designed by {designer} in {year}.", f"{designer} is the designer of the {p} pump.", str(designer)),
            Fact("factory", f"The {p} garden pump is assembled in a factory in {factory}.", f"The {p} pump is built in {factory}.", str(factory)),
            Fact("price", f"In shops the {p} garden pump sells for {price} euros.", f"The {p} pump costs {price} euros.", str(price)),
        ]
        joint = f"The {p} pump weighs {weight} kilograms and costs {price} euros."
    elif lang == "de":
        facts = [
            Fact("weight", f"Die Gartenpumpe {p} wiegt ohne Schlauch {weight} Kilogramm.", f"Das Gewicht der Gartenpumpe {p} ohne Schlauch beträgt {weight} Kilogramm.", str(weight),
                 f"Wie viel wiegt die Gartenpumpe {p}?", f"How much does the {p} garden pump weigh?"),
            Fact("runtime", f"Mit einer Akkuladung läuft die Gartenpumpe {p} {hours} Stunden lang.", f"Der Akku der Gartenpumpe {p} hält pro Ladung {hours} Stunden.", str(hours),
                 f"Wie lange läuft die Gartenpumpe {p} mit einer Akkuladung?", f"How long does the {p} garden pump run on one battery charge?"),
            Fact("designer", f"Entworfen wurde die Gartenpumpe {p} im Jahr {year} von {designer}.", f"{designer} hat die Gartenpumpe {p} entworfen.", str(designer),
                 f"Wer hat die Gartenpumpe {p} entworfen?", f"Who designed the {p} garden pump?"),
            Fact("factory", f"Die Gartenpumpe {p} wird in einem Werk in {factory} zusammengebaut.", f"Gebaut wird die Gartenpumpe {p} im Werk von {factory}.", str(factory),
                 f"In welcher Stadt wird die Gartenpumpe {p} gebaut?", f"In which town is the {p} garden pump built?"),
            Fact("price", f"Im Handel kostet die Gartenpumpe {p} {price} Euro.", f"Der Preis der Gartenpumpe {p} liegt bei {price} Euro.", str(price),
                 f"Was kostet die Gartenpumpe {p}?", f"How much does the {p} garden pump cost?"),
        ]
        joint = f"Die Gartenpumpe {p} wiegt {weight} Kilogramm und kostet {price} Euro."
    else:
        facts = [
            Fact("weight", f"Садовый насос {p} весит {weight} килограммов без шланга.", f"Вес садового насоса {p} без шланга составляет {weight} килограммов.", str(weight)),
            Fact("runtime", f"На одном заряде аккумулятора садовый насос {p} работает {hours} часов.", f"Аккумулятора насоса {p} хватает на {hours} часов работы.", str(hours)),
            Fact("designer", f"Садовый насос {p} в {year} году спроектировал {designer.nom}.", f"Насос {p} был спроектирован {designer.ins}.", designer.nom),
            Fact("factory", f"Садовый насос {p} собирают на заводе в {factory.prep}.", f"{factory.nom} — город, где производят насос {p}.", factory.nom),
            Fact("price", f"В магазинах садовый насос {p} стоит {price} евро.", f"Цена насоса {p} — {price} евро.", str(price)),
        ]
        joint = f"Насос {p} весит {weight} килограммов и стоит {price} евро."
    return _document(doc_id, lang, "product", str(p), facts, (joint, "weight", "price"), "runtime",
                     {"weight": "price", "runtime": "weight", "designer": "factory", "factory": "designer", "price": "weight"}, names)


def town_document(doc_id: str, lang: str, names: Namer) -> Document:
    t, river, mayor, twin = names.town(lang), names.river(lang), names.person(lang), names.town(lang)
    founded, people, since = names.rng.randint(1150, 1890), names.number(1200, 9800), names.rng.randint(1955, 2015)
    if lang == "en":
        facts = [
            Fact("founded", f"{t} was founded by fishermen in {founded}.", f"The town of {t} dates back to {founded}.", str(founded)),
            Fact("population", f"Today {t} has {people} inhabitants.", f"{people} people live in the town of {t}.", str(people)),
            Fact("river", f"{t} lies on the banks of the river {river}.", f"The {river} flows through {t}.", str(river)),
            Fact("mayor", f"The mayor of {t} is {mayor}.", f"{mayor} serves as the town's mayor in {t}.", str(mayor)),
            Fact("twin", f"Since {since}, {t} has been twinned with {twin}.", f"{twin} is a twin town of {t}.", str(twin)),
        ]
        joint = f"{t}, founded in {founded}, lies on the {river}."
    elif lang == "de":
        facts = [
            Fact("founded", f"{t} wurde im Jahr {founded} von Fischern gegründet.", f"Die Gründung der Stadt {t} erfolgte {founded}.", str(founded),
                 f"Wann wurde {t} gegründet?", f"When was {t} founded?"),
            Fact("population", f"Heute zählt {t} {people} Einwohner.", f"In der Stadt {t} leben {people} Menschen.", str(people),
                 f"Wie viele Einwohner hat {t}?", f"How many inhabitants does {t} have?"),
            Fact("river", f"{t} liegt am Ufer der {river}.", f"Durch die Stadt {t} fließt die {river}.", str(river),
                 f"An welchem Fluss liegt {t}?", f"Which river does {t} lie on?"),
            Fact("mayor", f"Bürgermeister von {t} ist {mayor}.", f"Die Stadt {t} wird von {mayor} als Bürgermeister geführt.", str(mayor),
                 f"Wer ist der Bürgermeister von {t}?", f"Who is the mayor of {t}?"),
            Fact("twin", f"Seit {since} ist {t} mit {twin} verschwistert.", f"{twin} ist eine Partnerstadt von {t}.", str(twin),
                 f"Mit welcher Stadt ist {t} verschwistert?", f"Which town is {t} twinned with?"),
        ]
        joint = f"Das {founded} gegründete {t} liegt an der {river}."
    else:
        facts = [
            Fact("founded", f"{t.nom} был основан рыбаками в {founded} году.", f"Основание города {t.gen} относится к {founded} году.", str(founded)),
            Fact("population", f"Сегодня в {t.prep} проживает {people} человек.", f"Население {t.gen} составляет {people} человек.", str(people)),
            Fact("river", f"{t.nom} стоит на берегу реки {river.gen}.", f"Через {t.nom} протекает река {river.nom}.", river.nom),
            Fact("mayor", f"Мэром {t.gen} является {mayor.nom}.", f"Городом {t.ins} руководит мэр {mayor.nom}.", mayor.nom),
            Fact("twin", f"С {since} года {t.nom} является побратимом {twin.gen}.", f"{twin.nom} и {t.nom} — города-побратимы.", twin.nom),
        ]
        joint = f"Основанный в {founded} году {t.nom} стоит на реке {river.prep}."
    return _document(doc_id, lang, "town", str(t), facts, (joint, "founded", "river"), "mayor",
                     {"founded": "population", "population": "founded", "river": "twin", "mayor": "twin", "twin": "river"}, names)


def person_document(doc_id: str, lang: str, names: Namer) -> Document:
    n, birthplace, company, book, medal = names.person(lang), names.town(lang), names.word(), names.word(), names.word()
    born, founded = names.rng.randint(1901, 1960), names.rng.randint(1965, 1990)
    awarded = founded + names.rng.randint(3, 20)
    if lang == "en":
        facts = [
            Fact("born_year", f"{n} was born in {born} into a family of clockmakers.", f"{n}'s year of birth is {born}.", str(born)),
            Fact("birthplace", f"{n} was born in the town of {birthplace}.", f"{n} is a native of {birthplace}.", str(birthplace)),
            Fact("company", f"In {founded}, {n} founded the firm {company}.", f"The firm {company} was founded by {n}.", company),
            Fact("book", f"{n} wrote a book called {book}.", f"The book {book} is by {n}.", book),
            Fact("prize", f"{n} received the {medal} Medal in {awarded}.", f"{n} was awarded the {medal} Medal in {awarded}.", str(awarded)),
        ]
        joint = f"{n}, born in {birthplace}, founded the firm {company}."
    elif lang == "de":
        facts = [
            Fact("born_year", f"{n} kam im Jahr {born} in einer Uhrmacherfamilie zur Welt.", f"Das Geburtsjahr von {n} ist {born}.", str(born),
                 f"In welchem Jahr wurde {n} geboren?", f"In what year was {n} born?"),
            Fact("birthplace", f"Geboren wurde {n} in der Stadt {birthplace}.", f"{n} stammt aus {birthplace}.", str(birthplace),
                 f"Wo wurde {n} geboren?", f"Where was {n} born?"),
            Fact("company", f"Im Jahr {founded} gründete {n} die Firma {company}.", f"{n} ist der Gründer der Firma {company}.", company,
                 f"Welche Firma hat {n} gegründet?", f"Which firm did {n} found?"),
            Fact("book", f"{n} schrieb ein Buch mit dem Titel {book}.", f"Das Buch {book} stammt von {n}.", book,
                 f"Welches Buch hat {n} geschrieben?", f"Which book did {n} write?"),
            Fact("prize", f"Im Jahr {awarded} erhielt {n} die {medal}-Medaille.", f"{n} wurde {awarded} mit der {medal}-Medaille ausgezeichnet.", str(awarded),
                 f"In welchem Jahr erhielt {n} die {medal}-Medaille?", f"In what year did {n} receive the {medal} Medal?"),
        ]
        joint = f"Der in {birthplace} geborene {n} gründete die Firma {company}."
    else:
        facts = [
            Fact("born_year", f"{n.nom} родился в {born} году в семье часовщиков.", f"Год рождения {n.gen} — {born}.", str(born)),
            Fact("birthplace", f"{n.nom} родился в городе {birthplace.prep}.", f"Родной город {n.gen} — {birthplace.nom}.", birthplace.nom),
            Fact("company", f"В {founded} году {n.nom} основал фирму «{company}».", f"Фирма «{company}» была основана {n.ins}.", company),
            Fact("book", f"{n.nom} написал книгу «{book}».", f"Книга «{book}» написана {n.ins}.", book),
            Fact("prize", f"В {awarded} году {n.nom} получил медаль {medal}.", f"{n.dat} вручили медаль {medal} в {awarded} году.", str(awarded)),
        ]
        joint = f"Уроженец {birthplace.gen} {n.nom} основал фирму «{company}»."
    return _document(doc_id, lang, "person", str(n), facts, (joint, "birthplace", "company"), "book",
                     {"born_year": "prize", "birthplace": "born_year", "company": "book", "book": "company", "prize": "born_year"}, names)


def _document(doc_id, lang, kind, title, facts, joint, joint_wrong, confusable, names: Namer) -> Document:
    fillers = names.rng.sample(FILLERS[kind][lang], len(facts))
    passages = tuple(f"{fact.passage} {filler}" for fact, filler in zip(facts, fillers))
    return Document(doc_id, lang, kind, title, tuple(facts), passages, joint, joint_wrong, confusable)


BUILDERS = (product_document, town_document, person_document)


def documents(lang: str, per_kind: int, seed: int, prefix: str) -> list[Document]:
    names = Namer(random.Random(f"{seed}-{lang}"))
    return [build(f"{prefix}{lang}-{build.__name__.split('_')[0]}{i}", lang, names) for i in range(per_kind) for build in BUILDERS]
