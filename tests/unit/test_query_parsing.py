from desktop_app.core.retrieval.query_parsing import parse_queries

Q = "What voltage does the PX-40 need and how often are its seals replaced?"


def test_numbered_list_with_preamble_and_quotes():
    raw = 'Here are 4 search queries:\n1. "PX-40 supply voltage"\n2. PX-40 seal replacement interval\n3) \'PX-40 power\'\n4. PX-40 maintenance'
    assert parse_queries(raw, Q, 4) == ["PX-40 supply voltage", "PX-40 seal replacement interval", "PX-40 power", "PX-40 maintenance"]


def test_bullets_bold_and_headings():
    raw = "### Search queries\n- **PX-40 voltage**\n* PX-40 seals\n\u2022 seal kit SK-40"
    assert parse_queries(raw, Q, 5) == ["PX-40 voltage", "PX-40 seals", "seal kit SK-40"]


def test_duplicates_and_echo_of_question_are_dropped_and_capped():
    raw = f"{Q}\nPX-40 voltage\npx-40 VOLTAGE\nPX-40 seals\nPX-40 bearings\nPX-40 housing"
    assert parse_queries(raw, Q, 3) == ["PX-40 voltage", "PX-40 seals", "PX-40 bearings"]


def test_sure_preamble_without_colon_and_blank_lines():
    raw = "Sure! Here are some search queries for you\n\n1. PX-40 voltage\n\n2. PX-40 seals\n"
    assert parse_queries(raw, Q, 4) == ["PX-40 voltage", "PX-40 seals"]


def test_nothing_usable_gives_empty_list():
    assert parse_queries("", Q, 4) == []
    assert parse_queries("1.\n2.\n-", Q, 4) == []
    assert parse_queries("Here are 4 queries:", Q, 4) == []


def test_query_labels_and_trailing_commas():
    raw = "Query 1: PX-40 voltage,\nQuery 2: PX-40 seal interval;\nq3. SK-40 kit"
    assert parse_queries(raw, Q, 4) == ["PX-40 voltage", "PX-40 seal interval", "SK-40 kit"]


def test_the_models_answer_to_the_question_is_not_searched():
    raw = "Yes, you can build without a building permit.\nYes\nNo\nbuilding permit: exemptions\nSuper Mario Bros.\nK2"
    assert parse_queries(raw, "Can I build without a building permit?", 6) == ["building permit: exemptions", "Super Mario Bros.", "K2"]
    statement = "Among the top five best selling video games, none features physical combat."
    assert parse_queries(statement, "Which best-selling game has no combat?", 4) == []
    assert parse_queries("Nobel Prize: first recipients", "Who first won each Nobel Prize?", 4) == ["Nobel Prize: first recipients"]
    assert parse_queries("Yes: members\nNo Doubt: members", "Who played in Yes and No Doubt?", 4) == ["Yes: members", "No Doubt: members"]
