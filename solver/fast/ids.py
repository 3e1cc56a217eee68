"""Literal, append-only ids the kernels compile in: goods, wheel tokens, canonical action bases,
effect keys, and the column layout of the tables (tables.py).

Numba freezes module globals into the compiled code, and its cache does not notice when a
global computed in another module changes. So every constant a kernel reads is written out
here as a literal, never derived from ``solver.rules`` at import time;
``tests/fast/test_kernels.py`` holds each of them equal to the reference module it mirrors
(goods.py, canonical.py, the effect registry of effects.py, layout of the wheel tokens). Ids
are append-only: a new effect or good goes at the end, and nothing is renumbered.
"""

from __future__ import annotations

# ----- goods (solver/rules/goods.py) -------------------------------------------------------------
WOOD, WHISKEY, GRAIN, STRAW, SHEEP, MEAT, CLAY, CERAMIC, PEAT, COAL, COIN, BOOK, NICKEL = range(13)
RELIQUARY, STONE, ORNAMENT, GRAPES, WINE, FLOUR, BREAD, MALT, BEER, WONDER = range(13, 23)
#: the six basic goods in the order of goods.BASIC (Cloister Courtyard, Druid's House)
BASIC = (PEAT, SHEEP, WOOD, CLAY, COIN, GRAIN)

# ----- wheel tokens (layout.TOK order; solver/rules/wheel.py) ------------------------------------
T_GRAIN, T_SHEEP, T_CLAY, T_COIN, T_WOOD, T_PEAT, T_JOKER, T_GRAPES, T_STONE = range(9)
#: the good each token hands out (-1: the joker names one)
TOKEN_GOOD = (GRAIN, SHEEP, CLAY, COIN, WOOD, PEAT, -1, GRAPES, STONE)

# ----- canonical action ids (solver/rules/canonical.py) ------------------------------------------
END, OPT0, N_OPTIONS, CONVERT_WINE, CONVERT_WHISKEY = 0, 1, 63, 64, 65
USE0, CONTRACT0, FREE0, NBUILD0 = 100, 300, 700, 800
FELL0, CUT0, BUILD0, SETTLE0, DISTRICT0, PLOT0 = 1000, 1300, 2000, 14000, 15200, 15300
#: length of every action buffer the kernels take (legal's ``out``, step's ``scratch``): legal
#: actions fill it from the front, below WORK0 (at most 13 display buildings x 144 spaces of
#: builds, plus the rest, fit with room to spare); kernels borrow the rest as work space, so
#: nothing is allocated per step
MAX_LEGAL = 4096
WORK0 = 3072
# the work space (offsets from WORK0): which kernel uses what
W_OPTS, W_DATA, W_COST, W_SEEN = 0, 64, 68, 96  # valid option ids, option data, cost, seen
W_REST, W_GOT = 352, 384  # affordable: goods left after exact goods and coins; pay_rule
W_TARGETS, W_NB = 416, 800  # free-use / neutral-contract targets (95); neighbour spaces (5)
W_FREE, W_TOUCH = 512, 656  # build_actions: empty spaces, their cloister adjacency (144 each)

# ----- effect keys (the registry of solver/rules/effects.py; buildings.csv effect_key) -----------
EFFECT_KEYS = (
    "clay_mound", "cloister_office", "farmyard", "grapevine", "quarry", "priory",
    "cloister_garden", "cottage", "palace", "grand_manor", "use_unbuilt_building",
    "cloister_courtyard", "grain_storage", "granary", "windmill", "malthouse", "bakery",
    "brewery", "fuel_merchant", "peat_coal_kiln", "market", "false_lighthouse", "spinning_mill",
    "harbor_promenade", "houseboat", "stone_merchant", "builders_market", "carpentry",
    "sacred_site", "financed_estate", "druids_house", "cloister_chapter_house",
    "cloister_library", "scriptorium", "cloister_workshop", "slaughterhouse", "inn", "alehouse",
    "winery", "whiskey_distillery", "bathhouse", "locutory", "cloister_church", "chapel",
    "chamber_of_wonders", "portico", "shipyard", "castle", "forest_hut", "town_estate",
    "refectory", "coal_harbor", "calefactory", "filial_church", "shipping_company", "cooperage",
    "sacristy", "forgers_workshop", "round_tower", "pilgrimage_site", "camera", "dormitory",
    "bulwark", "printing_office", "festival_ground", "estate", "house_of_the_brotherhood",
)
EFFECT_ID = {k: i for i, k in enumerate(EFFECT_KEYS)}

# the effects the kernels handle by name (the rest read their option and gains rows)
E_CLAY_MOUND, E_OFFICE, E_FARMYARD, E_GRAPEVINE, E_QUARRY, E_PRIORY = 0, 1, 2, 3, 4, 5
E_GARDEN, E_COTTAGE, E_PALACE, E_MANOR, E_HOSPICE, E_COURTYARD = 6, 7, 8, 9, 10, 11
E_WINDMILL, E_MALTHOUSE, E_BAKERY, E_BREWERY, E_FUEL, E_KILN = 14, 15, 16, 17, 18, 19
E_LIGHTHOUSE, E_SPINNING, E_STONE_MERCHANT = 21, 22, 25
E_SACRED, E_DRUID, E_LIBRARY, E_WORKSHOP, E_SLAUGHTER, E_INN = 28, 30, 32, 34, 35, 36
E_ALEHOUSE, E_WINERY, E_DISTILLERY, E_BATHHOUSE, E_LOCUTORY = 37, 38, 39, 40, 41
E_CHURCH, E_CHAPEL, E_CHAMBER, E_CASTLE, E_FOREST_HUT = 42, 43, 44, 47, 48
E_REFECTORY, E_COAL_HARBOR, E_CALEFACTORY, E_SHIPPING, E_COOPERAGE = 50, 51, 52, 54, 55
E_SACRISTY, E_FORGER, E_ROUND_TOWER, E_PILGRIMAGE, E_CAMERA = 56, 57, 58, 59, 60
E_DORMITORY, E_BULWARK, E_PRINTING, E_FESTIVAL, E_ESTATE, E_BROTHERHOOD = 61, 62, 63, 64, 65, 66

# ----- cost vectors: 23 exact goods, then coins, food, energy (half units), points, distinct -----
C_COINS, C_FOOD, C_ENERGY, C_POINTS, C_DISTINCT = 23, 24, 25, 26, 27
COST_SIZE = 28

# ----- table columns (tables.py) -----------------------------------------------------------------
B_COLS = ("wood", "clay", "stone", "straw", "coins", "terrain_mask", "cloister", "economic",
          "dwelling", "effect", "phase", "number", "in_game")
(BC_WOOD, BC_CLAY, BC_STONE, BC_STRAW, BC_COINS, BC_TERR, BC_CLOISTER, BC_ECON, BC_DWELL,
 BC_EFFECT, BC_PHASE, BC_NUMBER, BC_INGAME) = range(13)
# settlements: food, energy, economic, dwelling, terrain mask, arrives
SC_FOOD, SC_ENERGY, SC_ECON, SC_DWELL, SC_TERR, SC_ARRIVES = range(6)
# effects: canonical option count; 1 if its one option has a fixed cost (costs row); 1 if its
# function only hands out a fixed set of goods (gains row); 1 if its options are a fixed menu
# (effects.MENUS), the menu row of its option 1, and 1 if the menu rows' gains are all its
# function does; then its converter numbers (effects.RATES), 0 padded
EF_OPTIONS, EF_FIXED_COST, EF_GAINS = range(3)
EF_MENU, EF_MENU_ROW, EF_MENU_GAINS = 3, 4, 5
EF_RATES, N_RATES = 6, 5
EF_SIZE = EF_RATES + N_RATES
# menu rows (one per entry of effects.MENUS): the option's data, its cost vector, its gains
MC_DATA, MC_COST, MC_GAINS = 0, 4, 32
MENU_SIZE = 55
# misc: variant flags, ids of special buildings
M_FRANCE, M_DRINK, M_PLAYER_L1, M_NEUTRAL_L1, M_MARKET, M_PRIORY, M_GARDEN, M_COTTAGE = range(8)
M_WINERY, M_DISTILLERY, M_BROTHER_RATE2, M_ROUND_TOWER = 8, 9, 10, 11
M_SIZE = 12
# land: [0:20] district plains terrain/feature pairs, [20:40] hills, [40:49] district prices,
# [49:58] plot prices
LAND_DPRICE, LAND_PPRICE = 40, 49
LAND_SIZE = 58
# flow script step kinds (solver/rules/schedule.py)
STEP_KINDS = ("round", "neutral_build", "neutral_contract", "neutral_return", "settle",
              "arrivals", "turn", "end")
(S_ROUND, S_NEUTRAL_BUILD, S_NEUTRAL_CONTRACT, S_NEUTRAL_RETURN, S_SETTLE, S_ARRIVALS, S_TURN,
 S_END) = range(8)

# ----- the one table array the kernels take (tables.py): row ranges of a (TABLE_ROWS,
# TABLE_WIDTH) int64 array, each table in rows of its own from column 0 ----------------------------
TABLE_WIDTH = 64
R_BUILDINGS = 0  # 79 rows x B_COLS
R_SETTLEMENTS = 79  # 8 rows x 6
R_VALUES = 87  # 4 rows (food, energy2, points, money) x 23 goods
R_ORDERS = 91  # 4 rows (food, energy, points, distinct pay orders) x 23, -1 padded
R_WHEEL = 95  # 1 row: the 13 values of the production wheel
R_LAND = 96  # 1 row: LAND_SIZE district sides and prices
R_MISC = 97  # 1 row: M_SIZE
R_EFFECTS = 98  # MAX_EFFECTS rows x EF_SIZE
MAX_EFFECTS = 80
R_COSTS = R_EFFECTS + MAX_EFFECTS  # MAX_EFFECTS rows x COST_SIZE
R_GAINS = R_COSTS + MAX_EFFECTS  # MAX_EFFECTS rows x 23
R_FIELDS = R_GAINS + MAX_EFFECTS  # MAX_FIELDS rows x 4: layout.FIELDS
MAX_FIELDS = 48
R_SCRIPT = R_FIELDS + MAX_FIELDS  # MAX_SCRIPT rows x 2: the flow script
MAX_SCRIPT = 256
R_MENUS = R_SCRIPT + MAX_SCRIPT  # MAX_MENUS rows x MENU_SIZE: the menu rows
MAX_MENUS = 128
TABLE_ROWS = R_MENUS + MAX_MENUS
