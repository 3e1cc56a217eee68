"""Kennerspiel move notation (../shared/reference/NOTATION.md): import into and export from
the reference engine.

Modules, one concern each:

* ``goods_strings``: resource strings (``GnGnWo``) and kennerspiel's goods names;
* ``registry`` and ``param_codecs``: the ``USE`` parameter codecs, one decode/encode pair per
  effect key, registered as solver/rules/effects.py registers the effects;
* ``syntax``: the shape of each command (what makes a move malformed);
* ``records``: game records (../shared/games schema) and kennerspiel's command lists;
* ``frames``: the only reader of the engine's pending decision frames;
* ``importer``: kennerspiel moves applied to a :class:`~solver.rules.game.State`;
* ``exporter``: engine actions written as kennerspiel moves;
* ``summary``: the replay summary of ``ora-solve replay``.

Public API:

* reading: :func:`load_record` (a JSON record), :func:`load_game` (a JSON record, a JSON list
  of command strings, or a text file with one command per line), :func:`parse_command_list`
  (text -> token lists), :func:`record_from_commands` (a command list -> a record; a seeded
  ``START`` is seated by :func:`infer_seats`), :func:`config_from_record`;
* importing: :class:`Replay` (``Replay(config, profile).apply(index, tokens)``),
  :func:`replay_record`, and for a research prefix :func:`apply_moves` (kennerspiel moves,
  token lists or command strings, applied to any state) and :func:`solo_state` (a fresh solo
  game, rulebook profile by default, after a list of moves or a command text), both raising
  ``move N (TOKENS): REASON``;
* exporting: :func:`export_history` (a whole engine history, CONFIG and START included),
  :func:`export_actions` (actions from any decision point), :func:`command_for_action` (the
  moves one action completes) and :class:`MoveWriter` (action by action, as a game is played);
* :func:`replay_summary`, :func:`ks_goods`, :func:`parse_goods`, :func:`goods_text`.

Every failing move raises :class:`NotationError`, whose message is ``move N (TOKENS): REASON``
(``malformed`` tells a move no state could accept from one the rules reject here); a bad
record raises :class:`RecordError`. Nothing is skipped silently.

Declined uses (``PLACE_ONLY``, an extension of the notation). The engine lets a player place a
clergyman and decline the function (option 0, buildings.md §1); kennerspiel writes a declined
converter as a bare ``USE <id>``, but for many buildings a bare use *is* a use (a Cloister
Garden still gives its grape and offers the free use, a Priory or Hospice offers its free use,
a Clay Mound takes clay, ...) and kennerspiel has no notation for declining them. The exporter
therefore writes such a decline as ``USE <id> PLACE_ONLY`` (followed by the goods string, if
the declined use paid any), and only where the bare use would not import as a decline: every
move kennerspiel itself can express keeps its kennerspiel form. The importer reads
``PLACE_ONLY`` as option 0 under every profile. kennerspiel does not know the token (it reads
``PL AC E_ ON LY`` as unknown resource pairs and ignores them), so it would replay such a move
as a real use: records with ``PLACE_ONLY`` round-trip exactly through this engine only, which
is the point, since no kennerspiel record can mean "place only" on those buildings.

Chosen amounts (``OPTION=``, an extension too). kennerspiel reads a converter's amount from the
goods its move names (NOTATION §7). The engine's own moves may name more: a food or energy price
is paid tile by tile and the last tile may overshoot (a Stone Merchant making 2 stone paid with
two meat, buildings.md §1: the surplus is lost), and the goods string alone would then import
as 4 stone. Where the kennerspiel form would import as another option than the one the engine
took, the exporter appends ``OPTION=<the option's data as compact JSON>`` (``OPTION=[2]``) as
the last parameter; the importer takes that option, paid with the goods named before it.

Likewise a fell-trees or cut-peat action with no forest or moor card left (allowed, giving
nothing: profile ``empty_fell_cut``, D23; kennerspiel rejects it) is written ``FELL_TREES`` /
``CUT_PEAT`` with no coordinates, and the importer reads it back as that action.
"""

from __future__ import annotations

from . import param_codecs  # noqa: F401  (registers the codecs)
from .errors import NotationError, RecordError
from .exporter import MoveWriter, command_for_action, export_actions, export_history
from .goods_strings import (
    ENERGY_GOODS,
    FLAGS,
    KS_GOOD_NAMES,
    MONEY_GOODS,
    POINT_MIX,
    goods_text,
    ks_goods,
    parse_goods,
)
from .importer import Replay, apply_moves, infer_seats, replay_record, solo_state
from .records import (
    COLOUR_CODES,
    GameConfig,
    commands_from_json,
    config_from_record,
    load_game,
    load_record,
    parse_command_list,
    play_moves,
    record_from_commands,
)
from .registry import CODECS, DECLINE, OPTION_TAG, PLACE_ONLY, codec
from .summary import replay_summary

__all__ = [
    "CODECS", "COLOUR_CODES", "DECLINE", "ENERGY_GOODS", "FLAGS", "KS_GOOD_NAMES",
    "MONEY_GOODS", "OPTION_TAG", "PLACE_ONLY", "POINT_MIX", "GameConfig", "MoveWriter",
    "NotationError", "RecordError", "Replay", "apply_moves", "codec", "command_for_action",
    "commands_from_json", "config_from_record", "export_actions", "export_history",
    "goods_text", "infer_seats", "ks_goods", "load_game", "load_record", "parse_command_list",
    "parse_goods", "play_moves", "record_from_commands", "replay_record", "replay_summary",
    "solo_state",
]
