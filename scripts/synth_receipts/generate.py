"""Generates SYNTHETIC labeled receipts in German, French, Spanish, Italian, Dutch, Portuguese and Polish.

Every receipt is invented: shop names, addresses, VAT ids and items are made up from word lists below. The layout
follows how shops in those countries print them (logo or name header, sometimes a slogan instead, address, VAT id,
items with a VAT class letter or a rate column, quantity lines above or under their item, weighed items, deposits
and returns, discounts, a totals block, a payment block with tendered cash and change, one of each language's VAT
tables whose gross column adds up to the total, and a footer with the legal entity line; see pick_layout and
TABLES). It is rendered with a few fonts, rotated slightly, blurred and speckled, and written in the fixture layout:
NAME.jpg and NAME.json (the label schema of the fixture README: merchant, date, total, currency, tax, items, source;
items are the priced lines, deposits and returned deposits among them, discounts not; and `category`, the expense
category the labeling guideline gives the shop's trade, TRADE_CATEGORIES, which `pipeline bench` scores).

With `--languages id`, Indonesian receipts in rupiah instead (WHOLE_UNIT_LANGUAGES, make_whole_unit_receipt): money in
whole units in thousands groups (`25,000`, `25.000`, `Rp 25.000`), a subtotal, PB1 or PPN tax, a service charge on
some, cash with change or a card; not among the default languages.

Usage: python3 scripts/synth_receipts/generate.py --out DIR [--per-language 35] [--seed 28] [--languages de,fr] [--chains]
(--chains: shops of real chains, CHAINS, with the expense category in the label; see docs/extraction-languages.md)
Needs Pillow and numpy (scripts/synth_receipts/requirements.txt) and the DejaVu, Liberation and FreeFont fonts
(Debian fonts-dejavu-core, fonts-liberation, fonts-freefont-ttf; fonts not installed are skipped).
See docs/extraction-languages.md.
"""
import argparse
import json
import os
import random
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

CENT = Decimal("0.01")

FONT_CANDIDATES = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeMono.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSans.ttf",
]
BOLD_CANDIDATES = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSerifBold.ttf",
]
ITALIC_CANDIDATES = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Italic.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Italic.ttf",
]

# Per language: shop name parts, legal forms, street and town, slogans, items, and the words of each block.
LANGUAGES = {
    "de": {
        "currency": "EUR",
        "first": ["Markt", "Frischmarkt", "Drogerie", "Baumarkt", "Getränke", "Bäckerei", "Biomarkt", "Tankstelle"],
        "last": ["Hofmann", "Krüger", "Weber", "Schäfer", "Brandt", "Vogel", "Lorenz", "Kühn", "Fuchs", "Seidel"],
        "legal": ["GmbH", "GmbH & Co. KG", "AG", "KG", "e.K.", "OHG"],
        "streets": ["Hauptstraße", "Bahnhofstr.", "Lindenweg", "Marktplatz", "Industriestraße", "Am Ring"],
        "towns": [("10115", "Berlin"), ("80331", "München"), ("50667", "Köln"), ("20095", "Hamburg"),
                  ("04109", "Leipzig"), ("70173", "Stuttgart")],
        "phone": lambda r: f"Tel. 0{r.randint(30, 911)} {r.randint(100000, 9999999)}",
        "vat_id": lambda r: f"USt-IdNr.: DE{r.randint(100000000, 999999999)}",
        "slogans": ["WUNSCHLOS GLÜCKLICH", "FRISCHE EINKAUFEN", "GENUSS ERLEBEN", "Gut. Günstig. Nah."],
        "items": ["Vollmilch 3,5%", "Butter", "Bananen", "Roggenbrot", "Joghurt Natur", "Apfelsaft", "Käse Gouda",
                  "Eier 10 Stk", "Kaffee gemahlen", "Nudeln", "Tomaten", "Mineralwasser", "Duschgel", "Zahnpasta",
                  "Schrauben 4x40", "Spülmittel", "Müsli", "Schokolade"],
        "weighed": ["Äpfel", "Kartoffeln", "Trauben", "Hackfleisch"],
        "deposit": "Pfand", "deposit_return": "Leergut",
        "discount": ["Rabatt", "Aktionsrabatt"],
        "total": ["SUMME", "ZU ZAHLEN", "Gesamt", "SUMME EUR", "Summe"],
        "tendered_cash": ["BAR", "Bargeld", "Gegeben"], "change": ["Rückgeld", "ZURÜCK", "Rückgeld EUR"],
        "card": ["EC-Karte", "Girocard", "Kartenzahlung", "VISA"],
        "tax_header": ("MwSt", "Netto", "Steuer", "Brutto"),
        "rates": [("A", Decimal("19")), ("B", Decimal("7"))],
        "date_forms": ["dmy_dot", "dmy_dot_short", "d_monthname_de"],
        "date_word": ["Datum:", "", ""],
        "thanks": ["Vielen Dank für Ihren Einkauf", "Danke und bis bald!", "Bitte Bon aufbewahren"],
        "receipt_word": ["Bon-Nr.", "Beleg", "Kasse"],
        "months": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
                   "November", "Dezember"],
    },
    "fr": {
        "currency": "EUR",
        "first": ["Boulangerie", "Épicerie", "Supermarché", "Pharmacie", "Librairie", "Fromagerie", "Brico"],
        "last": ["Dubois", "Lefèvre", "Moreau", "Girard", "Bonnet", "Mercier", "Fontaine", "Rousseau"],
        "legal": ["SARL", "SAS", "S.A.", "SASU", "EURL"],
        "streets": ["rue de la Paix", "avenue Jean Jaurès", "boulevard Victor Hugo", "place du Marché"],
        "towns": [("75011", "Paris"), ("69002", "Lyon"), ("13001", "Marseille"), ("31000", "Toulouse"),
                  ("44000", "Nantes")],
        "phone": lambda r: f"Tél. 0{r.randint(1, 5)} {r.randint(10, 99)} {r.randint(10, 99)} {r.randint(10, 99)} {r.randint(10, 99)}",
        "vat_id": lambda r: f"TVA intracom. FR{r.randint(10, 99)}{r.randint(100000000, 999999999)}",
        "slogans": ["LA FRAÎCHEUR AU QUOTIDIEN", "Bienvenue chez nous", "Le goût du bon"],
        "items": ["Baguette", "Croissant", "Lait demi-écrémé", "Beurre doux", "Camembert", "Pommes Golden",
                  "Eau minérale", "Yaourt nature", "Café moulu", "Pâtes", "Jus d'orange", "Confiture", "Dentifrice",
                  "Shampooing", "Riz basmati", "Chocolat noir"],
        "weighed": ["Tomates", "Carottes", "Raisin", "Comté"],
        "deposit": "Consigne", "deposit_return": "Retour consigne",
        "discount": ["Remise", "Réduction"],
        "total": ["TOTAL", "TOTAL TTC", "MONTANT TTC", "Net à payer", "TOTAL EUR"],
        "tendered_cash": ["ESPECES", "Espèces", "Reçu"], "change": ["RENDU", "Rendu monnaie", "A rendre"],
        "card": ["CB", "Carte bancaire", "CARTE BLEUE"],
        "tax_header": ("TVA", "HT", "TVA", "TTC"),
        "rates": [("1", Decimal("5.5")), ("2", Decimal("20")), ("3", Decimal("10"))],
        "date_forms": ["dmy_slash", "d_monthname_fr", "dmy_slash_short"],
        "date_word": ["Date :", "Le", ""],
        "thanks": ["Merci de votre visite", "A bientôt !", "Merci et à bientôt"],
        "receipt_word": ["Ticket", "N° ticket", "Caisse"],
        "months": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
                   "novembre", "décembre"],
    },
    "es": {
        "currency": "EUR",
        "first": ["Supermercado", "Panadería", "Farmacia", "Ferretería", "Frutería", "Bazar", "Droguería"],
        "last": ["García", "Martínez", "López", "Sánchez", "Romero", "Navarro", "Torres", "Ruiz"],
        "legal": ["S.L.", "S.A.", "S.L.U.", "S.Coop."],
        "streets": ["Calle Mayor", "Avda. de la Constitución", "Calle Real", "Plaza de España", "Paseo del Prado"],
        "towns": [("28013", "Madrid"), ("08002", "Barcelona"), ("46001", "Valencia"), ("41001", "Sevilla"),
                  ("50001", "Zaragoza")],
        "phone": lambda r: f"Tel: 9{r.randint(10, 99)} {r.randint(100, 999)} {r.randint(100, 999)}",
        "vat_id": lambda r: f"CIF: B{r.randint(10000000, 99999999)}",
        "slogans": ["CALIDAD Y FRESCURA", "Tu tienda de siempre", "¡Gracias por elegirnos!"],
        "items": ["Leche entera", "Pan de barra", "Aceite de oliva", "Huevos docena", "Queso manchego",
                  "Jamón serrano", "Agua mineral", "Yogur natural", "Café molido", "Arroz", "Tomate frito",
                  "Galletas", "Zumo de naranja", "Detergente", "Papel higiénico"],
        "weighed": ["Naranjas", "Plátanos", "Patatas", "Tomates"],
        "deposit": "Envase", "deposit_return": "Devolución envase",
        "discount": ["Descuento", "Dto. promoción"],
        "total": ["TOTAL", "TOTAL A PAGAR", "IMPORTE TOTAL", "TOTAL EUR", "Total compra"],
        "tendered_cash": ["EFECTIVO", "Entregado", "Efectivo"], "change": ["CAMBIO", "Cambio", "DEVOLUCION"],
        "card": ["TARJETA", "Tarjeta crédito", "VISA"],
        "tax_header": ("IVA", "Base", "Cuota", "Total"),
        "rates": [("A", Decimal("21")), ("B", Decimal("10")), ("C", Decimal("4"))],
        "date_forms": ["dmy_slash", "dmy_dash", "dmy_slash_short"],
        "date_word": ["Fecha:", "Fecha", ""],
        "thanks": ["Gracias por su visita", "Vuelva pronto", "Conserve su ticket"],
        "receipt_word": ["Factura simplificada", "Ticket", "Nº"],
        "months": ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
                   "octubre", "noviembre", "diciembre"],
    },
    "it": {
        "currency": "EUR",
        "first": ["Supermercato", "Panificio", "Farmacia", "Ferramenta", "Alimentari", "Salumeria", "Profumeria"],
        "last": ["Rossi", "Bianchi", "Ferrari", "Esposito", "Romano", "Colombo", "Ricci", "Marino", "Greco"],
        "legal": ["S.r.l.", "S.p.A.", "S.n.c.", "S.a.s."],
        "streets": ["Via Roma", "Corso Italia", "Via Garibaldi", "Piazza del Duomo", "Viale Mazzini"],
        "towns": [("00184", "Roma"), ("20121", "Milano"), ("10121", "Torino"), ("50122", "Firenze"),
                  ("80133", "Napoli")],
        "phone": lambda r: f"Tel. 0{r.randint(2, 99)} {r.randint(1000000, 9999999)}",
        "vat_id": lambda r: f"P.IVA {r.randint(10000000000, 99999999999)}",
        "slogans": ["LA QUALITÀ DI SEMPRE", "Benvenuti!", "Sapori di casa"],
        "items": ["Latte intero", "Pane comune", "Olio extravergine", "Uova fresche", "Parmigiano", "Prosciutto",
                  "Acqua naturale", "Yogurt bianco", "Caffè macinato", "Spaghetti", "Passata di pomodoro",
                  "Biscotti", "Succo di frutta", "Detersivo", "Mozzarella"],
        "weighed": ["Mele", "Pomodori", "Zucchine", "Uva"],
        "deposit": "Cauzione", "deposit_return": "Reso vuoti",
        "discount": ["Sconto", "Sconto fedeltà"],
        "total": ["TOTALE", "TOTALE EURO", "TOTALE COMPLESSIVO", "Totale"],
        "tendered_cash": ["CONTANTE", "Contanti", "Pagato"], "change": ["RESTO", "Resto"],
        "card": ["CARTA", "BANCOMAT", "Pagamento elettronico"],
        "tax_header": ("IVA", "Imponibile", "Imposta", "Totale"),
        "rates": [("A", Decimal("22")), ("B", Decimal("10")), ("C", Decimal("4"))],
        "date_forms": ["dmy_slash", "dmy_dash", "dmy_slash_short"],
        "date_word": ["Data:", "", ""],
        "thanks": ["Grazie e arrivederci", "Grazie per la visita", "Documento commerciale"],
        "receipt_word": ["DOCUMENTO COMMERCIALE", "Scontrino n.", "Cassa"],
        "months": ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
                   "ottobre", "novembre", "dicembre"],
    },
    "nl": {
        "currency": "EUR",
        "first": ["Supermarkt", "Bakkerij", "Drogisterij", "Bouwmarkt", "Slagerij", "Kaashandel", "Tuincentrum"],
        "last": ["de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "Bos"],
        "legal": ["B.V.", "N.V.", "V.O.F."],
        "streets": ["Kerkstraat", "Dorpsstraat", "Stationsweg", "Marktplein", "Molenweg"],
        "towns": [("1012 AB", "Amsterdam"), ("3011 AD", "Rotterdam"), ("3511 LX", "Utrecht"),
                  ("2511 CV", "Den Haag"), ("5611 EM", "Eindhoven")],
        "phone": lambda r: f"Tel. 0{r.randint(10, 79)}-{r.randint(1000000, 9999999)}",
        "vat_id": lambda r: f"BTW-nr NL{r.randint(100000000, 999999999)}B01",
        "slogans": ["ALTIJD VERS", "Lekker dichtbij", "Goed en voordelig"],
        "items": ["Halfvolle melk", "Volkoren brood", "Goudse kaas", "Roomboter", "Eieren 10 st", "Appelsap",
                  "Koffie", "Hagelslag", "Pindakaas", "Yoghurt", "Spa blauw", "Stroopwafels", "Wasmiddel",
                  "Tandpasta", "Rookworst"],
        "weighed": ["Appels", "Aardappelen", "Druiven", "Gehakt"],
        "deposit": "Statiegeld", "deposit_return": "Retour emballage",
        "discount": ["Korting", "Bonus korting"],
        "total": ["TOTAAL", "Te betalen", "TOTAAL EUR", "Totaal"],
        "tendered_cash": ["CONTANT", "Contant", "Betaald"], "change": ["Wisselgeld", "TERUG"],
        "card": ["PIN", "Pinnen", "Maestro"],
        "tax_header": ("BTW", "Excl.", "BTW", "Incl."),
        "rates": [("H", Decimal("21")), ("L", Decimal("9"))],
        "date_forms": ["dmy_dash", "dmy_dash_short", "dmy_slash"],
        "date_word": ["Datum:", "", ""],
        "thanks": ["Bedankt en tot ziens", "Dank u wel!", "Bewaar uw kassabon"],
        "receipt_word": ["Bonnr.", "Kassa", "Bon"],
        "months": ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september",
                   "oktober", "november", "december"],
    },
    "pt": {
        "currency": "EUR",
        "first": ["Supermercado", "Padaria", "Farmácia", "Drogaria", "Talho", "Mercearia", "Papelaria"],
        "last": ["Silva", "Santos", "Ferreira", "Pereira", "Oliveira", "Costa", "Rodrigues", "Martins"],
        "legal": ["Lda.", "S.A.", "Unipessoal Lda."],
        "streets": ["Rua Augusta", "Avenida da Liberdade", "Rua do Comércio", "Praça da República"],
        "towns": [("1100-053", "Lisboa"), ("4000-322", "Porto"), ("3000-150", "Coimbra"), ("8000-220", "Faro")],
        "phone": lambda r: f"Tel. 2{r.randint(10, 99)} {r.randint(100, 999)} {r.randint(100, 999)}",
        "vat_id": lambda r: f"NIF: PT{r.randint(500000000, 599999999)}",
        "slogans": ["QUALIDADE A BOM PREÇO", "Sempre perto de si", "Obrigado pela preferência"],
        "items": ["Leite meio-gordo", "Pão de forma", "Azeite virgem", "Ovos dúzia", "Queijo flamengo",
                  "Fiambre", "Água mineral", "Iogurte natural", "Café moído", "Arroz agulha", "Bacalhau",
                  "Bolachas", "Sumo de laranja", "Detergente", "Manteiga"],
        "weighed": ["Laranjas", "Batatas", "Maçãs", "Bananas"],
        "deposit": "Tara", "deposit_return": "Devolução tara",
        "discount": ["Desconto", "Desc. cartão"],
        "total": ["TOTAL", "TOTAL A PAGAR", "Total EUR", "TOTAL (EUR)"],
        "tendered_cash": ["NUMERÁRIO", "Dinheiro", "Entregue"], "change": ["TROCO", "Troco"],
        "card": ["MULTIBANCO", "Cartão", "MB"],
        "tax_header": ("IVA", "Incidência", "IVA", "Total"),
        "rates": [("A", Decimal("6")), ("B", Decimal("13")), ("C", Decimal("23"))],
        "date_forms": ["dmy_slash", "dmy_dash", "ymd_dash"],
        "date_word": ["Data:", "Data", ""],
        "thanks": ["Obrigado pela sua visita", "Volte sempre", "Processado por programa certificado"],
        "receipt_word": ["Fatura simplificada", "FS", "Talão"],
        "months": ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro",
                   "outubro", "novembro", "dezembro"],
    },
    "pl": {
        "currency": "PLN",
        "first": ["Sklep", "Piekarnia", "Apteka", "Market", "Delikatesy", "Drogeria", "Hurtownia"],
        "last": ["Nowak", "Kowalski", "Wiśniewski", "Wójcik", "Kamiński", "Lewandowski", "Zieliński", "Woźniak"],
        "legal": ["Sp. z o.o.", "S.A.", "Sp. j.", "Sp. k."],
        "streets": ["ul. Marszałkowska", "ul. Długa", "ul. Kościuszki", "al. Jana Pawła II", "ul. Polna"],
        "towns": [("00-001", "Warszawa"), ("30-001", "Kraków"), ("50-001", "Wrocław"), ("80-001", "Gdańsk"),
                  ("60-001", "Poznań")],
        "phone": lambda r: f"tel. {r.randint(12, 91)} {r.randint(100, 999)} {r.randint(10, 99)} {r.randint(10, 99)}",
        "vat_id": lambda r: f"NIP {r.randint(100, 999)}-{r.randint(100, 999)}-{r.randint(10, 99)}-{r.randint(10, 99)}",
        "slogans": ["ZAWSZE ŚWIEŻO", "Twój sklep blisko domu", "Dobre bo polskie"],
        "items": ["Mleko 2%", "Chleb żytni", "Masło", "Jajka 10 szt", "Ser żółty", "Kiełbasa", "Woda mineralna",
                  "Jogurt naturalny", "Kawa mielona", "Makaron", "Pomidory", "Sok jabłkowy", "Płyn do naczyń",
                  "Pasta do zębów", "Pierogi"],
        "weighed": ["Jabłka", "Ziemniaki", "Banany", "Marchew"],
        "deposit": "Kaucja", "deposit_return": "Zwrot kaucji",
        "discount": ["Rabat", "Upust"],
        "total": ["SUMA PLN", "SUMA", "DO ZAPŁATY", "Razem"],
        "tendered_cash": ["GOTÓWKA", "Gotówka", "Wpłata"], "change": ["RESZTA", "Reszta"],
        "card": ["KARTA", "Karta płatnicza"],
        "tax_header": ("PTU", "Netto", "Podatek", "Brutto"),
        "rates": [("A", Decimal("23")), ("B", Decimal("8")), ("C", Decimal("5"))],
        "date_forms": ["ymd_dash", "dmy_dot", "dmy_dash"],
        "date_word": ["", "Data:", ""],
        "thanks": ["Dziękujemy za zakupy", "Zapraszamy ponownie", "PARAGON FISKALNY"],
        "receipt_word": ["PARAGON FISKALNY", "Nr paragonu", "Kasa"],
        "months": ["stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
                   "października", "listopada", "grudnia"],
    },
}


# The classic layout (every receipt of the first version of this generator) and what other shops print instead.
CLASSIC_LAYOUT = {"quantity_below": False, "quantity_form": "{n} x {unit}", "weighed_form": "classic",
                  "item_discounts": False, "rate_column": False, "table": None}

# Quantity lines: the count and the unit price (`2 x 1,29`, `2 Stk x 1,19`, `1,29 x 2`).
QUANTITY_FORMS = {
    "de": ["{n} x {unit}", "{n} Stk x {unit}", "{unit} x {n}"],
    "fr": ["{n} x {unit}", "{n} X {unit} EUR"],
    "es": ["{n} x {unit}", "{n} UD x {unit}"],
    "it": ["{n} x {unit}", "{n} PZ x {unit}"],
    "nl": ["{n} x {unit}", "{n} st x {unit}", "{n}x {unit}"],
    "pt": ["{n} x {unit}", "{n} un x {unit}"],
    "pl": ["{n} szt. x {unit}", "{n} x {unit}"],
}

# VAT tables as shops print them besides the classic one (LANGUAGES' tax_header): the header, the amount columns in
# order, how a row names its rate (`letter`: `A 19%`, `letter=`: `A= 19,0%`, `plain`: `5,50%`) and the sum row's word.
TABLES = {
    "de": [
        {"header": "MWST-Satz   MWST  +  Netto  =  Brutto", "columns": ("tax", "net", "gross"), "rate": "letter",
         "sum": "Summe"},
        {"header": "Steuer   %   Netto   Steuer   Brutto", "columns": ("net", "tax", "gross"), "rate": "letter=",
         "sum": "Gesamtbetrag"},
    ],
    "fr": [
        {"header": "Taux   HT   TVA   TTC", "columns": ("net", "tax", "gross"), "rate": "plain", "sum": "Total"},
        {"header": "Code  Taux   Montant HT   TVA", "columns": ("net", "tax"), "rate": "letter", "sum": "Total"},
    ],
    "es": [
        {"header": "IVA   BASE IMPONIBLE (€)   CUOTA (€)", "columns": ("net", "tax"), "rate": "plain",
         "sum": "TOTAL"},
        {"header": "TIPO   BASE   CUOTA   TOTAL", "columns": ("net", "tax", "gross"), "rate": "plain", "sum": "SUMA"},
    ],
    "it": [
        {"header": "ALIQUOTA   IMPONIBILE   IMPOSTA", "columns": ("net", "tax"), "rate": "plain", "sum": "TOTALE"},
    ],
    "nl": [
        {"header": "BTW%   Grondslag   BTW", "columns": ("net", "tax"), "rate": "plain", "sum": "Totaal"},
        {"header": "Tarief   Excl. BTW   BTW   Incl. BTW", "columns": ("net", "tax", "gross"), "rate": "plain",
         "sum": "Totaal"},
    ],
}


# The expense category the labeling guideline (docs/categories.md) gives each invented shop's trade, by the trade
# word its name begins with; a word that names no one trade (`Sklep`, "shop") gives the label no category.
TRADE_CATEGORIES = {
    "Groceries": "Markt Frischmarkt Biomarkt Getränke Épicerie Supermarché Fromagerie Supermercado Frutería "
    "Supermercato Alimentari Salumeria Supermarkt Slagerij Kaashandel Talho Mercearia Market Delikatesy Hurtownia",
    "Food & Dining": "Bäckerei Boulangerie Panadería Panificio Bakkerij Padaria Piekarnia",
    "Healthcare": "Drogerie Pharmacie Farmacia Droguería Drogisterij Farmácia Drogaria Apteka Drogeria",
    "Shopping": "Baumarkt Librairie Brico Ferretería Bazar Ferramenta Profumeria Bouwmarkt Tuincentrum Papelaria",
    "Transportation": "Tankstelle",
}
TRADE_CATEGORY = {word: category for category, words in TRADE_CATEGORIES.items() for word in words.split()}

# Real chains of each country, for `--chains` (names, legal entities and web addresses as the chains print them;
# facts, not invented): (printed name, legal line, web address, expense category the labeling guideline gives the
# trade). The label's merchant is the printed name. A chain's logo is often a picture the OCR cannot read, so on some
# receipts the name is printed only in the legal line or the web address at the foot.
CHAINS = {
    "de": [("REWE", "REWE Markt GmbH", "www.rewe.de", "Groceries"),
           ("EDEKA", "EDEKA Handelsgesellschaft Südwest mbH", "www.edeka.de", "Groceries"),
           ("Lidl", "Lidl Vertriebs GmbH & Co. KG", "www.lidl.de", "Groceries"),
           ("ALDI SÜD", "ALDI SE & Co. KG", "www.aldi-sued.de", "Groceries"),
           ("Kaufland", "Kaufland Dienstleistung GmbH & Co. KG", "www.kaufland.de", "Groceries"),
           ("Netto Marken-Discount", "Netto Marken-Discount Stiftung & Co. KG", "www.netto-online.de", "Groceries"),
           ("PENNY", "PENNY Markt GmbH", "www.penny.de", "Groceries"),
           ("dm-drogerie markt", "dm-drogerie markt GmbH + Co. KG", "www.dm.de", "Healthcare"),
           ("ROSSMANN", "Dirk Rossmann GmbH", "www.rossmann.de", "Healthcare"),
           ("MediaMarkt", "MediaMarkt Deutschland GmbH", "www.mediamarkt.de", "Shopping"),
           ("OBI", "OBI Markt GmbH", "www.obi.de", "Shopping")],
    "fr": [("Carrefour", "Carrefour Hypermarchés SAS", "www.carrefour.fr", "Groceries"),
           ("E.Leclerc", "SAS Distribution Leclerc", "www.e.leclerc", "Groceries"),
           ("Auchan", "Auchan Hypermarché SAS", "www.auchan.fr", "Groceries"),
           ("Intermarché", "ITM Alimentaire SAS", "www.intermarche.com", "Groceries"),
           ("Monoprix", "Monoprix Exploitation SAS", "www.monoprix.fr", "Groceries"),
           ("Fnac", "Fnac Darty SA", "www.fnac.com", "Shopping"),
           ("Decathlon", "Decathlon SE", "www.decathlon.fr", "Shopping")],
    "es": [("Mercadona", "Mercadona S.A.", "www.mercadona.es", "Groceries"),
           ("Carrefour", "Centros Comerciales Carrefour S.A.", "www.carrefour.es", "Groceries"),
           ("DIA", "Distribuidora Internacional de Alimentación S.A.", "www.dia.es", "Groceries"),
           ("Eroski", "Eroski S.Coop.", "www.eroski.es", "Groceries"),
           ("Alcampo", "Alcampo S.A.", "www.alcampo.es", "Groceries")],
    "it": [("Esselunga", "Esselunga S.p.A.", "www.esselunga.it", "Groceries"),
           ("Conad", "Conad Soc. Coop.", "www.conad.it", "Groceries"),
           ("Eurospin", "Eurospin Italia S.p.A.", "www.eurospin.it", "Groceries"),
           ("Lidl", "Lidl Italia S.r.l.", "www.lidl.it", "Groceries")],
    "nl": [("Albert Heijn", "Albert Heijn B.V.", "www.ah.nl", "Groceries"),
           ("Jumbo", "Jumbo Supermarkten B.V.", "www.jumbo.com", "Groceries"),
           ("PLUS", "PLUS Retail B.V.", "www.plus.nl", "Groceries"),
           ("Kruidvat", "Kruidvat B.V.", "www.kruidvat.nl", "Healthcare"),
           ("HEMA", "HEMA B.V.", "www.hema.nl", "Shopping")],
    "pt": [("Pingo Doce", "Pingo Doce - Distribuição Alimentar, S.A.", "www.pingodoce.pt", "Groceries"),
           ("Continente", "Modelo Continente Hipermercados, S.A.", "www.continente.pt", "Groceries"),
           ("Minipreço", "Dia Portugal Supermercados, S.A.", "www.minipreco.pt", "Groceries")],
    "pl": [("Biedronka", "Jeronimo Martins Polska S.A.", "www.biedronka.pl", "Groceries"),
           ("Żabka", "Żabka Polska Sp. z o.o.", "www.zabka.pl", "Groceries"),
           ("Dino", "Dino Polska S.A.", "www.marketdino.pl", "Groceries"),
           ("Rossmann", "Rossmann SDP Sp. z o.o.", "www.rossmann.pl", "Healthcare")],
}


# Languages whose money is printed in whole units: shop name parts, address, items and the words of each block.
WHOLE_UNIT_LANGUAGES = {
    "id": {
        "currency": "IDR",
        "first": ["Warung", "Toko", "Rumah Makan", "Kedai", "Bakmi", "Kopi", "Depot", "Apotek"],
        "last": ["Sari", "Makmur", "Sederhana", "Jaya", "Bahagia", "Sentosa", "Lestari", "Barokah", "Mulia"],
        "streets": ["Jl. Sudirman", "Jl. Gatot Subroto", "Jl. Merdeka", "Jl. Diponegoro", "Jl. Gajah Mada"],
        "towns": ["Jakarta Selatan 12190", "Bandung 40115", "Surabaya 60271", "Yogyakarta 55213", "Denpasar 80361",
                  "Jakarta Pusat 10110", "Medan 20112"],
        "items": ["Nasi Goreng", "Mie Ayam", "Es Teh Manis", "Sate Ayam", "Ayam Bakar", "Kopi Susu", "Air Mineral",
                  "Bakso", "Gado-gado", "Teh Botol", "Roti Bakar", "Soto Ayam", "Nasi Uduk", "Jus Alpukat"],
        "taxes": [("PB1", 10), ("PPN", 11), ("Pajak", 10)],
        "service": "Service",
        "subtotal": ["Subtotal", "SUBTOTAL", "Sub Total"],
        "total": ["TOTAL", "Total", "GRAND TOTAL", "Total Bayar"],
        "tendered_cash": ["TUNAI", "Tunai", "CASH"], "change": ["KEMBALI", "Kembalian", "KEMBALIAN"],
        "card": ["DEBIT BCA", "QRIS", "KARTU KREDIT", "DEBIT MANDIRI"],
        "thanks": ["Terima kasih", "Terima kasih atas kunjungan Anda", "Selamat menikmati"],
        "receipt_word": ["No. Struk", "Nota", "No."],
        "date_word": ["Tanggal:", "", ""],
    },
}


def whole_money(value, separator, prefix):
    """An amount in whole units as the receipt prints it: `25,000`, `25.000`, `Rp 25.000`."""
    return prefix + f"{int(value):,}".replace(",", separator)


def make_whole_unit_receipt(lang, rng):
    """The printed lines and the label of one invented receipt in whole units (WHOLE_UNIT_LANGUAGES)."""
    spec = WHOLE_UNIT_LANGUAGES[lang]
    separator = rng.choice([",", ".", "."])
    prefix = rng.choice(["", "", "Rp ", "Rp"])

    def money_text(value):
        return whole_money(value, separator, prefix)

    brand = f"{rng.choice(spec['first'])} {rng.choice(spec['last'])}"
    lines = [("logo", brand, "")]
    lines.append(("text", f"{rng.choice(spec['streets'])} No. {rng.randint(1, 250)}", ""))
    lines.append(("text", rng.choice(spec["towns"]), ""))
    lines.append(("text", f"Telp. 0{rng.randint(21, 361)}-{rng.randint(1000000, 9999999)}", ""))
    lines.append(("blank", "", ""))
    year, month, day = rng.randint(2016, 2025), rng.randint(1, 12), rng.randint(1, 28)
    printed_date = rng.choice([f"{day:02d}/{month:02d}/{year}", f"{day:02d}-{month:02d}-{year}"])
    date_word = rng.choice(spec["date_word"])
    time = f"{rng.randint(7, 21):02d}:{rng.randint(0, 59):02d}"
    lines.append(("text", f"{date_word} {printed_date}  {time}".strip(), ""))
    lines.append(("text", f"{rng.choice(spec['receipt_word'])} {rng.randint(1000, 99999)}", ""))
    lines.append(("rule", "", ""))
    items = []
    subtotal = 0
    for _ in range(rng.randint(2, 8)):
        name = rng.choice(spec["items"])
        count = rng.choice([1, 1, 1, 2, 3])
        unit = rng.randint(3, 90) * 500
        price = unit * count
        lines.append(("item", f"{count} {name}", money_text(price)))
        items.append({"name": name, "quantity": count, "unitPrice": str(Decimal(unit).quantize(CENT)),
                      "totalPrice": str(Decimal(price).quantize(CENT))})
        subtotal += price
    lines.append(("rule", "", ""))
    lines.append(("total", rng.choice(spec["subtotal"]), money_text(subtotal)))
    service = 0
    if rng.random() < 0.4:
        service = subtotal * 5 // 100
        lines.append(("total", f"{spec['service']} 5%", money_text(service)))
    tax_word, rate = rng.choice(spec["taxes"])
    tax = (subtotal + service) * rate // 100
    lines.append(("total", f"{tax_word} {rate}%", money_text(tax)))
    total = subtotal + service + tax
    lines.append(("total", rng.choice(spec["total"]), money_text(total)))
    if rng.random() < 0.6:
        step = rng.choice([5000, 10000, 50000, 100000])
        paid = -(-total // step) * step
        if paid == total:
            paid += step
        lines.append(("pay", rng.choice(spec["tendered_cash"]), money_text(paid)))
        lines.append(("pay", rng.choice(spec["change"]), money_text(paid - total)))
    else:
        lines.append(("pay", rng.choice(spec["card"]), money_text(total)))
    lines.append(("blank", "", ""))
    lines.append(("text", rng.choice(spec["thanks"]), ""))
    label = {
        "merchant": brand,
        "date": f"{year:04d}-{month:02d}-{day:02d}",
        "currency": spec["currency"],
        "total": str(Decimal(total).quantize(CENT)),
        "subtotal": str(Decimal(subtotal).quantize(CENT)),
        "tax": str(Decimal(tax).quantize(CENT)),
        "tip": None,
        "items": items,
        "source": {
            "dataset": f"Synthetic-{lang}",
            "id": None,
            "labeledFields": ["merchant", "date", "total", "currency", "subtotal", "tax", "items"],
            "inferredFields": [],
            "notes": ["SYNTHETIC: generated by scripts/synth_receipts/generate.py, not a real receipt"],
        },
    }
    return lines, label


def pick_layout(lang, rng):
    """One receipt's layout: the classic one on a third of the receipts, otherwise a shop's own: the quantity line
    under the item, other quantity and weight forms, discounts under items, the VAT rate as a column (Italian
    `documento commerciale`) and another VAT table."""
    if rng.random() < 1 / 3:
        return CLASSIC_LAYOUT
    return {
        "quantity_below": rng.random() < 0.6,
        "quantity_form": rng.choice(QUANTITY_FORMS[lang]),
        "weighed_form": rng.choice(["{kg} kg x {unit} {cur}/kg", "{kg} kg x {unit} {symbol}/kg"]),
        "item_discounts": rng.random() < 0.5,
        "rate_column": lang == "it" and rng.random() < 0.6,
        "table": rng.choice(TABLES.get(lang, [None]) + [None]),
    }


def percent(rate, lang):
    """`19%`, `5,5%`."""
    return f"{rate}%".replace(".", ",")


def quantity_text(count, unit, lang, layout):
    return layout["quantity_form"].format(n=count, unit=money(unit, lang))


def weighed_text(weight, unit, lang, spec, layout):
    """`0,512 kg x 2,99 EUR/kg` (the classic form prints the weight without trailing zeros)."""
    code = "EUR" if spec["currency"] == "EUR" else "zł"
    if layout["weighed_form"] == "classic":
        return f"{str(weight).replace('.', ',')} kg x {money(unit, lang)} {code}/kg"
    symbol = "€" if spec["currency"] == "EUR" else "zł"
    return layout["weighed_form"].format(kg=f"{weight:.3f}".replace(".", ","), unit=money(unit, lang),
                                         cur="EUR" if spec["currency"] == "EUR" else "PLN", symbol=symbol)


def classic_table(spec):
    name, net_name, tax_name, gross_name = spec["tax_header"]
    return {"header": f"{name}%   {net_name}   {tax_name}   {gross_name}", "columns": ("net", "tax", "gross"),
            "rate": "letter", "sum": None}


def table_row(table, values, lang):
    """The amounts of a VAT table row in the table's column order: all but the last on the left, the last right."""
    amounts = [money(values[column], lang) for column in table["columns"]]
    return "   ".join(amounts[:-1]), amounts[-1]


def rate_label(form, letter, rate, lang):
    if form == "letter=":
        return f"{letter}= {rate:.1f}%".replace(".", ",")
    if form == "plain":
        return f"{rate:.2f}%".replace(".", ",")
    return f"{letter} {percent(rate, lang)}"


def money(value, lang):
    """An amount as the language prints it: decimal comma, thousands dot or space."""
    value = value.quantize(CENT, rounding=ROUND_HALF_UP)
    sign = "-" if value < 0 else ""
    whole, cents = f"{abs(value):.2f}".split(".")
    if len(whole) > 3:
        separator = " " if lang in ("fr", "pl") else "."
        whole = whole[:-3] + separator + whole[-3:]
    return f"{sign}{whole},{cents}"


def date_text(date, form, lang, rng):
    year, month, day = date
    months = LANGUAGES[lang]["months"]
    return {
        "dmy_dot": f"{day:02d}.{month:02d}.{year}",
        "dmy_dot_short": f"{day:02d}.{month:02d}.{year % 100:02d}",
        "dmy_slash": f"{day:02d}/{month:02d}/{year}",
        "dmy_slash_short": f"{day:02d}/{month:02d}/{year % 100:02d}",
        "dmy_dash": f"{day:02d}-{month:02d}-{year}",
        "dmy_dash_short": f"{day:02d}-{month:02d}-{year % 100:02d}",
        "ymd_dash": f"{year}-{month:02d}-{day:02d}",
        "d_monthname_de": f"{day}. {months[month - 1]} {year}",
        "d_monthname_fr": f"{day} {months[month - 1]} {year}",
    }[form]


def make_receipt(lang, rng, chains=False):
    """The printed lines (kind, left text, right text) and the label of one invented receipt (with `chains`, of a
    real chain's shop: the rest is invented as for any other)."""
    spec = LANGUAGES[lang]
    layout = pick_layout(lang, rng)
    if chains:
        brand, legal, website, category = rng.choice(CHAINS[lang])
    else:
        trade = rng.choice(spec["first"])
        brand = f"{trade} {rng.choice(spec['last'])}"
        legal = f"{brand} {rng.choice(spec['legal'])}"
        website, category = None, TRADE_CATEGORY.get(trade)
    postcode, town = rng.choice(spec["towns"])
    lines = []
    header = rng.random()
    if chains and header < 0.3:
        # The logo is a picture: no name on top, only the address (and the legal line and web address at the foot).
        pass
    elif header < 0.25:
        # A slogan or logo on top; the name is only in the legal line.
        lines.append(("slogan", rng.choice(spec["slogans"]), ""))
    elif header < 0.45:
        lines.append(("logo", brand.upper(), ""))
        lines.append(("slogan", rng.choice(spec["slogans"]), ""))
    else:
        lines.append(("logo", brand, ""))
    if rng.random() < 0.5:
        lines.append(("text", f"Filiale {rng.randint(100, 9999)}" if lang == "de" else legal, ""))
    lines.append(("text", f"{rng.choice(spec['streets'])} {rng.randint(1, 120)}", ""))
    lines.append(("text", f"{postcode} {town}", ""))
    lines.append(("text", spec["phone"](rng), ""))
    if rng.random() < 0.6:
        lines.append(("text", spec["vat_id"](rng), ""))
    lines.append(("blank", "", ""))
    if lang in ("de", "nl", "pl") or rng.random() < 0.5:
        lines.append(("text", "EUR" if spec["currency"] == "EUR" else "PLN", ""))

    rates = spec["rates"][: rng.randint(1, len(spec["rates"]))]
    rate_of = dict(spec["rates"])
    gross_by_class = {letter: Decimal(0) for letter, _ in spec["rates"]}
    items = []

    def price_text(price, letter, suffix=None):
        """The money column of an item line: the amount and its VAT class letter, or the rate in its own column."""
        if layout["rate_column"]:
            return f"{percent(rate_of[letter], lang)}      {money(price, lang)}"
        return f"{money(price, lang)}{suffix if suffix is not None else ' ' + letter}"

    for _ in range(rng.randint(3, 11)):
        letter, _ = rng.choice(rates)
        kind = rng.random()
        if kind < 0.15:
            name = rng.choice(spec["weighed"])
            weight = Decimal(rng.randint(120, 2400)) / 1000
            unit = Decimal(rng.randint(99, 1299)) / 100
            price = (weight * unit).quantize(CENT, rounding=ROUND_HALF_UP)
            lines.append(("item", name, price_text(price, letter)))
            lines.append(("detail", "  " + weighed_text(weight, unit, lang, spec, layout), ""))
            items.append({"name": name, "quantity": 1, "unitPrice": None, "totalPrice": str(price)})
        elif kind < 0.3:
            name = rng.choice(spec["items"])
            count = rng.randint(2, 6)
            unit = Decimal(rng.randint(39, 999)) / 100
            price = unit * count
            detail = ("detail", "  " + quantity_text(count, unit, lang, layout), "")
            item_line = ("item", name, price_text(price, letter))
            lines += [item_line, detail] if layout["quantity_below"] else [detail, item_line]
            items.append({"name": name, "quantity": count, "unitPrice": str(unit), "totalPrice": str(price)})
        else:
            name = rng.choice(spec["items"])
            price = Decimal(rng.randint(29, 2999 if rng.random() < 0.9 else 14999)) / 100
            suffix = rng.choice([f" {letter}", f" {letter}", "*" if rng.random() < 0.3 else f" {letter}"])
            lines.append(("item", name, price_text(price, letter, suffix)))
            items.append({"name": name, "quantity": 1, "unitPrice": None, "totalPrice": str(price)})
            if layout["item_discounts"] and rng.random() < 0.2:
                # A promotion taken off right under the item (`Preisvorteil -0,30 A`).
                cut = (price * Decimal(rng.choice([10, 20, 25, 30])) / 100).quantize(CENT)
                lines.append(("item", rng.choice(spec["discount"]), price_text(-cut, letter)))
                price -= cut
        gross_by_class[letter] += price
    if rng.random() < 0.3:
        letter = rates[0][0]
        deposit = Decimal(rng.choice([8, 15, 25, 50])) / 100 * rng.randint(1, 6)
        lines.append(("item", spec["deposit"], price_text(deposit, letter)))
        items.append({"name": spec["deposit"], "quantity": 1, "unitPrice": None, "totalPrice": str(deposit)})
        gross_by_class[letter] += deposit
    if rng.random() < 0.25:
        letter = rates[0][0]
        returned = Decimal(rng.choice([25, 15, 8])) / 100 * rng.randint(1, 4)
        shown = f"{money(returned, lang)}-" if rng.random() < 0.5 else money(-returned, lang)
        # Returned bottles are a line of their own with a negative amount (an item, as the shop prints it).
        lines.append(("item", spec["deposit_return"],
                      price_text(-returned, letter) if layout["rate_column"] else f"{shown} {letter}"))
        items.append({"name": spec["deposit_return"], "quantity": 1, "unitPrice": None,
                      "totalPrice": str(-returned)})
        gross_by_class[letter] -= returned
    if rng.random() < 0.25:
        letter = rates[0][0]
        cut = Decimal(rng.randint(10, 150)) / 100
        cut = min(cut, gross_by_class[letter] / 2).quantize(CENT)
        lines.append(("item", rng.choice(spec["discount"]), price_text(-cut, letter)))
        gross_by_class[letter] -= cut
    total = sum(gross_by_class.values())

    lines.append(("rule", "", ""))
    total_word = rng.choice(spec["total"])
    currency_mark = rng.choice(["", "", " €" if spec["currency"] == "EUR" else " zł", " EUR" if spec["currency"] == "EUR" else " PLN"])
    lines.append(("total", total_word, f"{money(total, lang)}{currency_mark}"))
    lines.append(("rule", "", ""))
    if rng.random() < 0.55:
        # Cash: the next note or round sum above the total.
        step = Decimal(rng.choice([5, 10, 20, 50]))
        paid = (total / step).to_integral_value(rounding="ROUND_CEILING") * step
        if paid == total:
            paid += step
        lines.append(("pay", rng.choice(spec["tendered_cash"]), money(paid, lang)))
        lines.append(("pay", rng.choice(spec["change"]), money(paid - total, lang)))
    else:
        lines.append(("pay", rng.choice(spec["card"]), money(total, lang)))
    lines.append(("blank", "", ""))

    table = layout["table"] or classic_table(spec)
    lines.append(("table", table["header"], ""))
    tax_total = Decimal(0)
    for letter, rate in spec["rates"]:
        gross = gross_by_class[letter]
        if gross == 0:
            continue
        tax = (gross * rate / (100 + rate)).quantize(CENT, rounding=ROUND_HALF_UP)
        tax_total += tax
        row = table_row(table, {"net": gross - tax, "tax": tax, "gross": gross}, lang)
        lines.append(("table", f"{rate_label(table['rate'], letter, rate, lang)}   {row[0]}", row[1]))
    if rng.random() < 0.5:
        row = table_row(table, {"net": total - tax_total, "tax": tax_total, "gross": total}, lang)
        sum_word = table.get("sum") or ("Summe" if lang == "de" else "Total")
        lines.append(("table", f"{sum_word}   {row[0]}", row[1]))
    lines.append(("blank", "", ""))

    year = rng.randint(2016, 2025)
    month = rng.randint(1, 12)
    day = rng.randint(1, 28)
    form = rng.choice(spec["date_forms"])
    date_line = f"{rng.choice(spec['date_word'])} {date_text((year, month, day), form, lang, rng)}".strip()
    time = f"{rng.randint(7, 21):02d}:{rng.randint(0, 59):02d}"
    receipt_no = f"{rng.choice(spec['receipt_word'])} {rng.randint(1000, 99999)}"
    date_block = [("text", f"{date_line}  {time}", ""), ("text", receipt_no, "")]
    if rng.random() < 0.5:
        rng.shuffle(date_block)
    # Dates print at the top on some receipts, at the foot on others.
    if rng.random() < 0.4:
        lines[5:5] = date_block
    else:
        lines += date_block
    lines.append(("text", rng.choice(spec["thanks"]), ""))
    lines.append(("text", legal, ""))
    if website and rng.random() < 0.6:
        lines.append(("text", website, ""))
    if rng.random() < 0.4:
        lines.append(("text", spec["vat_id"](rng), ""))

    label = {
        "merchant": brand,
        "date": f"{year:04d}-{month:02d}-{day:02d}",
        "currency": spec["currency"],
        "total": str(total.quantize(CENT)),
        "subtotal": None,
        "tax": str(tax_total.quantize(CENT)),
        "tip": None,
        "items": items,
        "source": {
            "dataset": f"Synthetic-{lang}",
            "id": None,
            "labeledFields": ["merchant", "date", "total", "currency", "tax", "items"],
            "inferredFields": [],
            "notes": ["SYNTHETIC: generated by scripts/synth_receipts/generate.py, not a real receipt"],
        },
    }
    if category:
        label["category"] = category
    return lines, label


def available(paths):
    return [p for p in paths if os.path.exists(p)]


def render(lines, rng, fonts):
    """Draws the lines on a receipt-width page, then skews, blurs and speckles it like a scan or photo."""
    size = rng.randint(22, 28)
    body = ImageFont.truetype(rng.choice(fonts["body"]), size)
    bold = ImageFont.truetype(rng.choice(fonts["bold"]), int(size * rng.uniform(1.6, 2.2)))
    italic = ImageFont.truetype(rng.choice(fonts["italic"]), int(size * 1.1))
    width = rng.randint(620, 760)
    margin = 30
    height = 60 + sum(int(size * 1.5) if k != "logo" else int(size * 2.8) for k, _, _ in lines) + 60
    page = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(page)
    y = 40
    for kind, left, right in lines:
        font = {"logo": bold, "slogan": italic}.get(kind, body)
        if kind == "rule":
            draw.line([(margin, y + size // 2), (width - margin, y + size // 2)], fill=40, width=2)
        elif kind in ("logo", "slogan") or (kind == "text" and not right):
            box = draw.textbbox((0, 0), left, font=font)
            x = max(margin, (width - (box[2] - box[0])) // 2) if kind != "text" or rng.random() < 0.8 else margin
            if kind == "logo" and rng.random() < 0.35:
                # A logo printed white on black.
                draw.rectangle([x - 12, y - 6, x + box[2] - box[0] + 12, y + box[3] + 10], fill=20)
                draw.text((x, y), left, font=font, fill=245)
            else:
                draw.text((x, y), left, font=font, fill=rng.randint(0, 60))
        else:
            ink = rng.randint(0, 70)
            draw.text((margin, y), left, font=font, fill=ink)
            if right:
                box = draw.textbbox((0, 0), right, font=font)
                draw.text((width - margin - (box[2] - box[0]), y), right, font=font, fill=ink)
        y += int(size * 2.8) if kind == "logo" else int(size * 1.5)
    page = page.crop((0, 0, width, y + 50))
    page = page.rotate(rng.uniform(-1.5, 1.5), resample=Image.BICUBIC, expand=True, fillcolor=255)
    page = page.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 0.9)))
    pixels = np.asarray(page, dtype=np.float32)
    noise = np.random.default_rng(rng.randint(0, 2**31)).normal(0, rng.uniform(4, 12), pixels.shape)
    paper = rng.uniform(215, 250) / 255
    pixels = np.clip(pixels * paper + noise, 0, 255).astype(np.uint8)
    return Image.fromarray(pixels)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--per-language", type=int, default=35)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--chains", action="store_true", help="shops of real chains (CHAINS) instead of invented ones")
    args = parser.parse_args()
    fonts = {"body": available(FONT_CANDIDATES), "bold": available(BOLD_CANDIDATES),
             "italic": available(ITALIC_CANDIDATES)}
    if not all(fonts.values()):
        raise SystemExit("error: no fonts found; install fonts-dejavu-core (and fonts-liberation, fonts-freefont-ttf)")
    for lang in args.languages.split(","):
        folder = os.path.join(args.out, lang)
        os.makedirs(folder, exist_ok=True)
        # One generator per language, so adding a language does not change the others' receipts.
        rng = random.Random(f"{args.seed}-{lang}")
        for number in range(args.per_language):
            if lang in WHOLE_UNIT_LANGUAGES:
                lines, label = make_whole_unit_receipt(lang, rng)
            else:
                lines, label = make_receipt(lang, rng, args.chains)
            name = f"synth_{'chain_' if args.chains else ''}{lang}_{number:03d}"
            label["source"]["id"] = name
            render(lines, rng, fonts).save(os.path.join(folder, name + ".jpg"), quality=85)
            with open(os.path.join(folder, name + ".json"), "w", encoding="utf-8") as handle:
                json.dump(label, handle, ensure_ascii=False, indent=1)
    print(f"wrote {args.per_language} receipts per language to {args.out}")


if __name__ == "__main__":
    main()
