"""Near-miss questions for bench/refusals.py: the entity IS in the library, the fact asked is NOT in its article.

BENCHMARK DATA. Nothing in the app (prompts, thresholds, examples, special cases) may be tuned on these
questions or written from them; a change that helps here must be argued and measured on other data.

Written by hand from the lead sections of dev-set articles in the refusal bench's seeded sample (800 articles,
random.Random(7)), one per article. The right reply to each is "Not found in your documents": the article
is about the entity but does not state the fact, and a small model that knows the fact from its training
(Britten died in 1976) must still not answer it from memory. Each entry carries the words that would state
the fact; `absent_from` checks at run time that none of them occurs in the article (whole words, any case),
and the reason says in words why the lead does not answer. An entry whose check fails is left out and listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class NearMiss:
    record: str  # the dev-set record id of the article that is in the library
    title: str
    question: str
    absent: tuple[str, ...]  # words that would state the fact; none may occur in the article
    reason: str


NEAR_MISSES = (
    NearMiss("w02471", "Doha", "In what year did Doha host the Asian Games?", ("Asian Games", "hosted", "Games"), "the lead gives location and population only; no sporting events"),
    NearMiss("w08779", "Swan", "How many years do swans typically live?", ("lifespan", "years", "age"), "taxonomy and size only; nothing about lifespan"),
    NearMiss("w00950", "Battleship Potemkin", "What is the running time of the film Battleship Potemkin in minutes?", ("minutes", "running", "runtime"), "year, studio, director and plot; no running time"),
    NearMiss("w09551", "Victoria Falls", "How tall is Victoria Falls?", ("height", "tall", "drop", "metres high"), "gives the width (1,708 m), not the height"),
    NearMiss("w01013", "Benjamin Britten", "In what year did Benjamin Britten die?", ("died", "death", "1976"), "works and roles; no dates of life"),
    NearMiss("w04744", "Jesse Owens", "In which US state was Jesse Owens born?", ("born", "Alabama", "birth"), "his 1936 Olympics only; no birthplace"),
    NearMiss("w02181", "Cumin", "Which country is the largest producer of cumin?", ("producer", "production", "India", "grown"), "botany and use; no production figures"),
    NearMiss("w01028", "Bermuda", "What is the population of Bermuda?", ("population", "inhabitants", "people", "residents"), "status and location only"),
    NearMiss("w01596", "Channel Tunnel", "How much did it cost to build the Channel Tunnel?", ("cost", "billion", "budget", "pounds"), "length, ends and opening year; no cost"),
    NearMiss("w08711", "Sulfur", "What is the melting point of sulfur?", ("melting", "melts", "boiling"), "symbol, atomic number, S8 and colour; no melting point"),
    NearMiss("w01341", "Calcium chloride", "What is the molar mass of calcium chloride?", ("molar", "mass", "g/mol"), "formula, appearance, solubility; no molar mass"),
    NearMiss("w05924", "Middlemarch", "What is the name of the heroine of Middlemarch?", ("Dorothea", "heroine", "protagonist", "Brooke"), "author and publication only; no characters"),
    NearMiss("w02490", "Donald Knuth", "In which city was Donald Knuth born?", ("born", "Milwaukee", "Wisconsin"), "profession, Stanford, Turing Award; no birthplace"),
    NearMiss("w09738", "Werner Heisenberg", "In what year did Werner Heisenberg receive the Nobel Prize in Physics?", ("Nobel", "prize", "1932", "1933"), "his field and wartime role; no prize"),
    NearMiss("w09143", "Tian Shan", "How long is the Tian Shan mountain system from end to end?", ("length", "long", "kilometres", "km", "stretches"), "highest and lowest points; no length"),
    NearMiss("w05140", "Lake Erie", "What is the surface area of Lake Erie in square kilometres?", ("square", "km2", "sq"), "ranks it by surface area but gives no area figure"),
    NearMiss("w07474", "Queen (band)", "What was the title of Queen's debut album?", ("album", "debut", "1973"), "members, founding and styles; no albums"),
    NearMiss("w00994", "Belize", "What is the capital of Belize?", ("capital", "Belmopan"), "borders and memberships; no capital"),
    NearMiss("w05072", "Krakatoa", "How many people died in the 1883 eruption of Krakatoa?", ("died", "deaths", "killed", "casualties", "fatalities", "dead"), "geography and the 1883 eruption; no death toll"),
    NearMiss("w07564", "Rawalpindi", "What is the population of Rawalpindi?", ("population", "million", "inhabitants"), "ranks it as fourth-most populous but gives no number"),
    NearMiss("w07053", "Pierre Boulez", "In what year was Pierre Boulez born?", ("born", "1925", "birth"), "roles and standing; no dates"),
    NearMiss("w09014", "The Hague", "What is the area of The Hague in square kilometres?", ("square", "km2", "area", "sq"), "population and role; no area"),
    NearMiss("w04619", "Itaipu Dam", "In what year was the Itaipu Dam completed?", ("completed", "construction", "built", "opened", "1984", "1991"), "river, border and rank; no dates"),
    NearMiss("w07481", "Quito", "At what elevation above sea level is Quito?", ("elevation", "altitude", "sea", "metres"), "population and setting on a volcano's slopes; no elevation"),
    NearMiss("w06536", "Oboe", "Who invented the oboe?", ("invented", "inventor", "Hotteterre", "Philidor", "17th"), "type and materials; no history"),
    NearMiss("w06457", "Norman Borlaug", "In what year did Norman Borlaug receive the Nobel Peace Prize?", ("1970", "awarded in", "year"), "names the prize, gives no year"),
    NearMiss("w02887", "Erwin Rommel", "How did Erwin Rommel die?", ("died", "death", "suicide", "cyanide", "killed"), "rank and armies; nothing on his death"),
    NearMiss("w03714", "Greta Garbo", "In which city was Greta Garbo born?", ("born", "Stockholm", "birth"), "career and standing; no birthplace"),
    NearMiss("w00457", "Andrei Sakharov", "Which weapon did Andrei Sakharov help develop for the Soviet Union?", ("hydrogen", "bomb", "weapon", "weapons", "thermonuclear"), "physicist and Nobel Peace Prize; no weapons work"),
    NearMiss("w01389", "Canopus", "How far is Canopus from Earth?", ("light-years", "light", "distance", "parsecs", "away"), "brightness and designation; no distance"),
    NearMiss("w06891", "Pecan", "Which US state produces the most pecans?", ("produces", "production", "Georgia", "Texas", "producer"), "species and native range only"),
    NearMiss("w08695", "Suez Canal", "In what year did the Suez Canal open?", ("opened", "1869", "construction", "built"), "route and length; no opening year"),
    NearMiss("w09167", "Time (magazine)", "Who co-founded Time magazine together with Henry Luce?", ("Hadden", "Briton"), "names Luce as a co-founder but not the other one"),
    NearMiss("w07070", "Pineapple", "Which country is the largest producer of pineapples?", ("producer", "production", "Costa Rica", "Philippines", "grown"), "one sentence of botany"),
    NearMiss("w02248", "Damascus", "What is the population of Damascus?", ("population", "million", "inhabitants"), "capital, age and nicknames; no population"),
    NearMiss("w07211", "Pope John XXIII", "What was Pope John XXIII's birth name?", ("Roncalli", "born", "birth", "Angelo"), "reign dates only"),
    NearMiss("w08325", "Smallpox", "Who developed the first smallpox vaccine?", ("vaccine", "Jenner", "vaccination", "inoculation"), "cause, last case and eradication; no vaccine"),
    NearMiss("w02081", "Cotonou", "What is the name of the international airport that serves Cotonou?", ("airport", "Cadjehoun", "airport's"), "status, population and location; no airport"),
    NearMiss("w09117", "Thomas Sankara", "Who succeeded Thomas Sankara as President of Burkina Faso?", ("Compaoré", "Compaore", "succeeded", "successor", "replaced"), "his time in power and assassination; no successor"),
    NearMiss("w08466", "Soyuz (spacecraft)", "How many cosmonauts can a Soyuz spacecraft carry?", ("cosmonauts", "crew", "three", "seats", "astronauts"), "history, designer and launch site; no capacity"),
    NearMiss("w08137", "Setsuko Hara", "In what year did Setsuko Hara retire from acting?", ("retired", "retire", "retirement", "1963"), "films and standing; no retirement"),
    NearMiss("w00064", "Abu Dhabi", "What is the population of Abu Dhabi?", ("population", "million", "inhabitants"), "ranks it second-most populous but gives no number"),
)


def absent_from(terms: tuple[str, ...], text: str) -> list[str]:
    """The terms that DO occur in the text (whole words, any case): an empty list means the fact is absent."""
    text = text.lower()
    return [t for t in terms if re.search(r"(?<!\w)" + re.escape(t.lower()) + r"(?!\w)", text)]
