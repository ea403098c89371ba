"""The phrases that say a question is about a whole document, per language (a language feature, like stop
words; intent.py). Each is matched case-insensitively on the question with the documents' names taken out.
A language is added by adding its `Phrases`; a question in a language without them is an ordinary question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_I = re.IGNORECASE


@dataclass(frozen=True)
class Phrases:
    summary: re.Pattern[str]  # asks for a summary or an overview
    about_at_end: re.Pattern[str]  # "... about?" closing the question: what it is about
    part: re.Pattern[str]  # a chapter, part, section or appendix by number or letter (group "ref")
    compare: re.Pattern[str]
    which: re.Pattern[str]  # "which of my files", "which document"
    covers: re.Pattern[str]  # the verb that makes a "which file" question a question about a topic
    document: re.Pattern[str]  # a word for one document: "summarize the router manual" asks about the one it describes
    contents: re.Pattern[str] | None = None  # its chapters or sections, asked for as a list
    contents_frame: re.Pattern[str] | None = None  # the words around them that ask nothing more ("list", "does it have")


ENGLISH = Phrases(
    summary=re.compile(
        r"\b(summar(y|i[sz]e|i[sz]ing)|sum(s|med|ming)? (it )?up|overview|outline|gist|synopsis|abstract|describ\w* (the |its )?contents|main (points|ideas|topics|themes)|tl;?dr|in (a )?(nutshell|brief))\b", _I
    ),
    about_at_end=re.compile(r"\b(about|cover|covers|covered|discuss|discussed)\W*$", _I),
    part=re.compile(r"\b(chapter|chap\.|ch\.|part|section|appendix)\s*(?P<ref>\d+(?:\.\d+)*|[IVXLC]+\b|(?-i:[A-Z])\b)", _I),
    compare=re.compile(r"\b(compar(e|es|ed|ing|ison)|contrast|differ(s|ence|ences)?|versus|vs\.?|similarit(y|ies))\b", _I),
    which=re.compile(
        r"\b((which|what)\s+(of\s+(my|the|these|our)\s+)?|where\s+in\s+(my|the|these|our)\s+)(files?|documents?|docs|books?|pdfs?|manuals?|papers?|reports?)\b", _I
    ),
    covers=re.compile(
        r"\b((is|are|was)\s+)?(about|covers?|covered|covering|discuss(es|ed)?|deals? with|talks? about|treat(s|ed)?|explain(s|ed)?|described|is on)(\s+the\s+(topic|subject|field)s?\s+of)?\b", _I
    ),
    document=re.compile(r"\b(manual|handbook|guide|document|doc|file|report|book|paper|pdf|datasheet|brochure|specification)\b", _I),
    contents=re.compile(r"\b(chapters|sections|headings|table of contents|toc)\b", _I),
    contents_frame=re.compile(r"\b(list|show|name|give|tell|me|all|have|has|contain|contains|include|includes)\b", _I),
)

GERMAN = Phrases(
    summary=re.compile(r"\b(zusammenfassung|zusammenfassen|fasse?\b.*\bzusammen|überblick|übersicht|kurzfassung)\b", _I),
    about_at_end=re.compile(r"\b(worum geht es in|wovon handelt|handelt)\b", _I),
    part=re.compile(r"\b(kapitel|teil|abschnitt|anhang)\s*(?P<ref>\d+(?:\.\d+)*|[IVXLC]+\b|(?-i:[A-Z])\b)", _I),
    compare=re.compile(r"\b(vergleich\w*|unterschied\w*|gegenüber)\b", _I),
    which=re.compile(r"\b(welche[rsnm]?)\s+(meiner\s+)?(datei(en)?|dokument(e|en)?|bücher|buch|pdfs?)\b", _I),
    covers=re.compile(r"\b(handelt von|behandelt|geht es um|über|beschreibt)\b", _I),
    document=re.compile(r"\b\w*(handbuch|handbuchs|anleitung|dokument|dokuments|datei|bericht|berichts|datenblatt|datenblatts|broschüre|buch|buchs)\b", _I),
    contents=re.compile(r"\b(kapitel|abschnitte|inhaltsverzeichnis)\b", _I),
    contents_frame=re.compile(r"\b(liste|listet|zeige|zeig|nenne|nenn|mir|alle|welche|hat|haben|enthält|gibt|es)\b", _I),
)

FRENCH = Phrases(
    summary=re.compile(r"\b(résum(é|e|er|ez)|aperçu|synthèse|grandes lignes)\b", _I),
    about_at_end=re.compile(r"\b(de quoi (parle|traite))\b", _I),
    part=re.compile(r"\b(chapitre|partie|section|annexe)\s*(?P<ref>\d+(?:\.\d+)*|[IVXLC]+\b|(?-i:[A-Z])\b)", _I),
    compare=re.compile(r"\b(compar\w*|différence\w*|diffèrent)\b", _I),
    which=re.compile(r"\b(quel(le)?s?)\s+(de mes\s+)?(fichiers?|documents?|livres?|pdfs?)\b", _I),
    covers=re.compile(r"\b(parle\w* de|traite\w*( de)?|porte\w* sur|couvre\w*|sur)\b", _I),
    document=re.compile(r"\b(manuel|guide|document|fichier|rapport|livre|notice|fiche technique|brochure|mode d'emploi)\b", _I),
    contents=re.compile(r"\b(chapitres|sections|table des matières|sommaire)\b", _I),
    contents_frame=re.compile(r"\b(liste|listez|montre|montrez|donne|donnez|moi|tous|quels|quelles|sont|contient|comporte)\b", _I),
)

SPANISH = Phrases(
    summary=re.compile(r"\b(resum(en|e|ir|a)|visión general|síntesis)\b", _I),
    about_at_end=re.compile(r"\b(de qué (trata|habla))\b", _I),
    part=re.compile(r"\b(capítulo|parte|sección|apéndice)\s*(?P<ref>\d+(?:\.\d+)*|[IVXLC]+\b|(?-i:[A-Z])\b)", _I),
    compare=re.compile(r"\b(compar\w*|diferencia\w*)\b", _I),
    which=re.compile(r"\b(qué|cuál(es)?)\s+(de mis\s+)?(archivos?|documentos?|libros?|pdfs?)\b", _I),
    covers=re.compile(r"\b(trata\w*( de| sobre)?|habla\w* (de|sobre)|cubre\w*|sobre)\b", _I),
    document=re.compile(r"\b(manual|guía|documento|archivo|informe|libro|ficha técnica|folleto)\b", _I),
    contents=re.compile(r"\b(capítulos|secciones|índice)\b", _I),
    contents_frame=re.compile(r"\b(qué|cuáles|tiene|son|hay|lista|enumera|muestra|muéstrame|dame|todos|los|las|me)\b", _I),
)

# Russian declines its nouns: the stems are matched with their endings ("руководства", "в главе 2").
RUSSIAN = Phrases(
    summary=re.compile(r"\b(кратко\w* (содержание|изложение)|резюме|обзор\w*|перескаж\w*|пересказ\w*|суммиру\w*|основн\w+ (мысл|иде|тем)\w*)\b", _I),
    about_at_end=re.compile(r"\b(о ч[её]м|про что)\b", _I),
    part=re.compile(r"\b(глав[аеуы]?|част[ьи]|раздел[еау]?|приложени[еия])\s*(?P<ref>\d+(?:\.\d+)*|[IVXLC]+\b|(?-i:[A-ZА-Я])\b)", _I),
    compare=re.compile(r"\b(сравн\w*|разниц\w*|отлича\w*|отличи\w*)\b", _I),
    which=re.compile(r"\b(как(ой|ие|ом|их|ая|ую)|в как(ом|их))\s+(из (моих|наших)\s+)?(файл\w*|документ\w*|книг\w*|pdf)\b", _I),
    covers=re.compile(r"\b(говорится|рассказыва\w*|ид[её]т речь|описыва\w*|посвящ\w*|о|об|про)\b", _I),
    document=re.compile(r"\b(руководств\w*|инструкци\w*|документ\w*|файл\w*|отч[её]т\w*|книг\w*|брошюр\w*|паспорт\w*)\b", _I),
    contents=re.compile(r"\b(главы|глав|главах|разделы|разделов|содержание|оглавление)\b", _I),
    contents_frame=re.compile(r"\b(какие|каких|есть|перечисли|покажи|назови|все|мне)\b", _I),
)

# Chinese, Japanese and Korean write no space between words (Korean glues its particles on): no "\b" around a phrase.
CHINESE = Phrases(
    summary=re.compile(r"(总结|總結|概括|概述|摘要|归纳|歸納|主要内容|主要內容|大意|要点|要點)"),
    about_at_end=re.compile(r"(讲|講|说|說|写|寫|谈|談)(了|的是)?(什么|什麼)(内容|內容)?\W*$|(关于|關於)(什么|什麼)\W*$|(内容|內容)是(什么|什麼)\W*$"),
    part=re.compile(r"第\s*(?P<ref>\d+)\s*(章|部分|节|節|篇)"),
    compare=re.compile(r"(比较|比較|对比|對比|区别|區別|异同|異同|差异|差異)"),
    which=re.compile(r"(哪个|哪個|哪些|哪一个|哪一個|哪份|哪本)\s*(文件|文档|文檔|书|書|手册|手冊|说明书|說明書|PDF)", _I),
    covers=re.compile(r"(讲|講|关于|關於|涉及|介绍|介紹|提到|讨论|討論|谈到|談到)(了|的是|到)?"),
    document=re.compile(r"(说明书|說明書|手册|手冊|指南|文档|文檔|文件|报告|報告|数据表|數據表|规格书|規格書|书|書)"),
    contents=re.compile(r"(章节|章節|目录|目錄|各章|小节|小節)"),
    contents_frame=re.compile(r"(列出|列举|列舉|显示|顯示|给我|給我|告诉我|告訴我|看看|有哪些|哪些|有什么|有什麼|什么|什麼|所有|全部|都有|包含|包括|一下|请|請|吗|嗎|中|里|裡|有|的|是|都)"),
)

JAPANESE = Phrases(
    summary=re.compile(r"(要約|まとめて|まとめ|概要|要点|あらすじ)"),
    about_at_end=re.compile(r"(何について|何が書かれて|何が書いて|どんな内容|どのような内容)"),
    part=re.compile(r"第\s*(?P<ref>\d+)\s*(章|部|節)"),
    compare=re.compile(r"(比較|比べて|違い|相違点)"),
    which=re.compile(r"(どの|どちらの)\s*(ファイル|文書|ドキュメント|本|マニュアル|説明書|PDF)(が|に|で|は)?", _I),
    # The verb after "について" goes with it: the topic is what comes before ("蛾の保護について説明していますか").
    covers=re.compile(r"(について|に関して)(説明|書か|書い|扱っ|述べ|記載)?[^\s?？。]*|を扱って|を説明して|が書かれて|が載って"),
    document=re.compile(r"(取扱説明書|説明書|マニュアル|文書|ドキュメント|ファイル|報告書|レポート|データシート|仕様書|本)"),
    contents=re.compile(r"(目次|章立て|章構成|見出し|セクション|章|節)"),
    contents_frame=re.compile(r"(ありますか|あります|ある|教えて|ください|下さい|見せて|表示して|一覧|リスト|すべて|全て|全部|どんな|どの|何が|ですか|には|を|が|の|は|に|か)"),
)

KOREAN = Phrases(
    summary=re.compile(r"(요약|개요|정리해|핵심 내용|주요 내용)"),
    about_at_end=re.compile(r"(무엇에 (관한|대한)|무슨 내용|어떤 내용)"),
    part=re.compile(r"제?\s*(?P<ref>\d+)\s*(장|부|절)(?=[을를의에은는]|[^가-힣]|$)"),  # "3장을", not "3장소" (a place)
    compare=re.compile(r"(비교|차이점|차이|다른 점)"),
    which=re.compile(r"(어느|어떤|무슨)\s*(파일|문서|책|설명서|매뉴얼|PDF)(이|가|은|는|에서)?", _I),
    covers=re.compile(r"(에 대해|에 대한|에 관해|에 관한)(\s*[가-힣]+)?|다루|설명하|나와"),
    document=re.compile(r"(설명서|매뉴얼|문서|파일|보고서|데이터시트|사양서|책)"),
    contents=re.compile(r"(목차|차례|챕터|섹션|단원)"),
    contents_frame=re.compile(r"(있나요|있어요|있습니까|있는지|있니|있어|알려|주세요|줘|보여|나열해|나열|목록|전부|모든|모두|어떤|무슨|에는|에서|이|가|은|는|을|를|의|에)"),
)

LANGUAGES: tuple[Phrases, ...] = (ENGLISH, GERMAN, FRENCH, SPANISH, RUSSIAN, CHINESE, JAPANESE, KOREAN)
