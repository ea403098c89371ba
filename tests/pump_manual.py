"""A made-up pump manual whose three chapters each end with the same notice page: repeated boilerplate, for the
SQLite and PostgreSQL migration tests (the words match no measuring set)."""

NOTICE = "Notice\nOrvel Pumps accepts no liability for seals fitted by others.\nCopyright Orvel Pumps, Tarrin."
CONTENT = [
    "The impeller turns at 2900 rpm and lifts 40 litres a second.\nIts blades are bronze.",
    "Check the impeller for wear every spring.\nA worn blade is rough to the touch.",
    "The seal is carbon on ceramic.\nIt runs dry for no longer than a minute.",
    "Replace the seal when water drips from the shaft.\nKeep a spare seal with the pump.",
    "Drain the casing before frost.\nOpen the plug under the casing and let it run empty.",
    "Fill the casing again before starting the pump.\nA dry start ruins the seal.",
]
# Each page's text: two pages of content, then the notice, three times.
PAGES = [t for chapter in (CONTENT[0:2], CONTENT[2:4], CONTENT[4:6]) for t in (*chapter, NOTICE)]
