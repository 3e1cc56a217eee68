"""State layout of the fast solo engine: a wide int64 working array and its packed uint64 form.

Kernels work on the **wide** state ``W`` (``W_SIZE`` int64, named offsets below); the
**packed** state is the same information in ``PACKED_WORDS`` (= 30) uint64 words, used to
store, hash and compare states (beam search keeps packed states). ``pack``/``unpack`` in
kernels/api.py convert between them with the ``FIELDS`` table.

Wide state (offsets)::

    0..22    GOODS      count of each good (solver.rules.goods ids)
    23       ARM        wheel arm 0..12
    24..32   TOK        reset position of grain, sheep, clay, coin, wood, peat, joker, grapes,
                        stone (-1: not on the wheel)
    33 ROUND  34 STEP (flow index)  35 PHASE (0 none, 1..5 = A..E)  36 DONE
    37 BOUGHT (landscape bought this round)  38 FEE_RAISED  39 WONDERS (left in supply)
    40 NDIST (districts taken from the stack)  41 NPLOT  42 SETTL (bitmask of settlement
       cards in hand, bit s = S(s+1))
    43..48   CLERGY     player lay 1, lay 2, prior, neutral lay 1, lay 2, prior:
                        -1 home, 0..143 a player space, 200..209 a neutral space
    49..61   NBUILT     buildings the neutral built this phase (-1 = none), in build order
    62..67   CHAIN      buildings used in the current chain of free uses (-1 = none)
    68       FDEPTH     number of frames on the decision stack (0..3)
    69..80   FRAMES     3 frames x (KIND, B, LOC, AUX): B a building (-1 none), LOC a space
                        code as CLERGY (or -1), AUX flags (see kernels/)
    81..84   LAND       bitmasks over the 16 window rows: district rows, district HILLS side,
                        coast plot top rows, mountain plot top rows
    85..228  GRID       player space contents (window index x = (row + 7) * 9 + col + 2):
                        0 empty or no land, 1 forest, 2 moor, 10 + b building b,
                        100 + s settlement S(s+1)
    229..238 NGRID      neutral heartland contents (index 5 * row + col), same codes
    239..382 TERR       player terrain per space, derived from LAND: 0 none, 1 water,
                        2 coast, 3 plains, 4 hillside, 5 mountain, 6 mountain filler
    383..461 STATUS     per building: 0 not in this game, 1 in its stack, 2 display,
                        3 built by the player, 4 built by the neutral, 5 gone (covered)

Packed state (bits, least significant first, fields in ``FIELDS`` order)::

    word  0..15   GRID      144 x 7 bits            (1008)
    word 15..17   NGRID      10 x 7                  (70)
    word 17..19   GOODS      23 x 8                  (184)
    word 20       TOK/ARM     9 x 4 (15 = absent) + 4 (40)
    word 20..     ROUND 6, STEP 8, PHASE 3, DONE 1, BOUGHT 1, FEE 1, WONDERS 4, NDIST 4,
                  NPLOT 4, SETTL 8, CLERGY 6 x 9, NBUILT 13 x 7, CHAIN 6 x 7, FDEPTH 2,
                  FRAMES 3 x (4 + 7 + 9 + 8), LAND 4 x 16, STATUS 79 x 3
                  -- 1916 bits in all, 30 words (PACKED_BITS, PACKED_WORDS)

TERR is not packed: ``unpack`` derives it from LAND.
"""

from __future__ import annotations

import numpy as np

N_GOODS = 23
N_BUILDINGS = 79
N_ROWS = 16
ROW_MIN = -7
N_CELLS = 144
N_NCELLS = 10
NEUTRAL_LOC = 200

GOODS = 0
ARM = 23
TOK = 24
N_TOK = 9
ROUND, STEP, PHASE, DONE = 33, 34, 35, 36
BOUGHT, FEE_RAISED, WONDERS, NDIST, NPLOT, SETTL = 37, 38, 39, 40, 41, 42
CLERGY = 43
NBUILT = 49
N_NBUILT = 13  # the whole start display (12 in Ireland) can go to the neutral in one phase
CHAIN = NBUILT + N_NBUILT
N_CHAIN = 6
FDEPTH = CHAIN + N_CHAIN
FRAMES = FDEPTH + 1
FRAME_SIZE = 4
MAX_FRAMES = 3
LAND = FRAMES + FRAME_SIZE * MAX_FRAMES
GRID = LAND + 4
NGRID = GRID + N_CELLS
TERR = NGRID + N_NCELLS
STATUS = TERR + N_CELLS
W_SIZE = STATUS + N_BUILDINGS

# frame field offsets
F_KIND, F_B, F_LOC, F_AUX = 0, 1, 2, 3
# frame kinds
K_SLOT, K_OPTION, K_PRIOR_BONUS, K_FREE_USE = 1, 2, 3, 4
K_GRANT_BUILD, K_GRANT_SETTLE, K_GRANT_FELL_CUT, K_GRANT_LAND = 5, 6, 7, 8
K_NEUTRAL_BUILD, K_NEUTRAL_CONTRACT, K_SETTLE = 9, 10, 11
# via (OPTION frame AUX low bits)
VIA_CLERGY, VIA_FREE, VIA_CONTRACT = 0, 1, 2

# content codes
C_EMPTY, C_FOREST, C_MOOR, C_BUILDING, C_SETTLEMENT = 0, 1, 2, 10, 100
# terrain codes
T_NONE, T_WATER, T_COAST, T_PLAINS, T_HILL, T_MOUNTAIN, T_FILLER = 0, 1, 2, 3, 4, 5, 6
TERRAIN_CODES = {"W": T_WATER, "C": T_COAST, "P": T_PLAINS, "H": T_HILL, "M": T_MOUNTAIN,
                 ".": T_FILLER}
# building status
S_OUT, S_STACK, S_DISPLAY, S_MINE, S_NEUTRAL, S_GONE = 0, 1, 2, 3, 4, 5


def _fields():
    """(wide offset, count, bits, bias) of every packed field, in packing order."""
    f = [
        (GRID, N_CELLS, 7, 0),
        (NGRID, N_NCELLS, 7, 0),
        (GOODS, N_GOODS, 8, 0),
        (TOK, N_TOK, 4, 1),  # -1 (absent) packs as 0
        (ARM, 1, 4, 0),
        (ROUND, 1, 6, 0),
        (STEP, 1, 8, 0),
        (PHASE, 1, 3, 0),
        (DONE, 1, 1, 0),
        (BOUGHT, 1, 1, 0),
        (FEE_RAISED, 1, 1, 0),
        (WONDERS, 1, 4, 0),
        (NDIST, 1, 4, 0),
        (NPLOT, 1, 4, 0),
        (SETTL, 1, 8, 0),
        (CLERGY, 6, 9, 1),  # -1 home packs as 0; 0..143 and 200..209 fit in 9 bits
        (NBUILT, N_NBUILT, 7, 1),
        (CHAIN, N_CHAIN, 7, 1),
        (FDEPTH, 1, 2, 0),
    ]
    for i in range(MAX_FRAMES):
        base = FRAMES + FRAME_SIZE * i
        f += [(base + F_KIND, 1, 4, 0), (base + F_B, 1, 7, 1), (base + F_LOC, 1, 9, 1),
              (base + F_AUX, 1, 8, 0)]
    f += [(LAND, 4, 16, 0), (STATUS, N_BUILDINGS, 3, 0)]
    return np.array(f, dtype=np.int64)


FIELDS = _fields()
N_FIELDS = len(FIELDS)
PACKED_BITS = int(sum(int(c) * int(b) for _, c, b, _ in FIELDS))
PACKED_WORDS = (PACKED_BITS + 63) // 64
assert PACKED_WORDS <= 32, PACKED_BITS
