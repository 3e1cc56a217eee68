// The kennerspiel oracle driver: runs kennerspiel's engine (npm package hathora-et-labora-game,
// GPL-3, installed by ./setup into ./.oracle/, never copied into ora-solve) behind a JSON-lines
// protocol on stdin/stdout. One request per line, one answer per line.
//
// Requests (every answer carries "ok"; a failure carries "error"):
//   {"op": "replay", "moves": [[tokens], ...]}
//       apply the moves from the empty state; answer {"ok", "applied": n, "rejected": index|null,
//       "error", "commits": [{"after_move", ...summary}], "final": summary}
//   {"op": "random", "config": ["2", "france", "long"], "colors": ["R", "G"], "seed": 7,
//    "max_commands": 5000}
//       play a seeded random game from kennerspiel's own move generation (control().completion,
//       token by token; a solo neutral BUILD leaving a later forced build no accepted cell is
//       drawn again, see leavesRoom); answer {"ok", "moves", "actors" (colour each move was applied for,
//       "-" for CONFIG/START), "commits", "final", "ended": "finished" |
//       "max_commands" | "stuck" | "loop" (the round number went back), "generated_rejected": [[tokens], ...]}
//   {"op": "inspect", "moves": [...], "partial": [tokens]}
//       kennerspiel's raw state after the moves and its completion of the partial command
//   {"op": "version"}
//
// A summary is {"status", "round", "settlement_round", "current", "active", "neutral_phase",
// "bonus_round", "frame": frame index, "players": [{"color", "goods": {non-zero}, "wonders"}],
// "neutral": color|null, "scores": [{"goods", "economic", "dwelling": [...], "total"}]}.

import { createRequire, register } from 'node:module';
import { createInterface } from 'node:readline';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = process.env.KENNER_ORACLE_DIR
  ?? path.join(here, '.oracle', 'node_modules', 'hathora-et-labora-game');
const require = createRequire(import.meta.url);
const pkg = require(path.join(pkgDir, 'package.json'));
register('./resolve-hook.mjs', import.meta.url);
let entry = path.join(pkgDir, pkg.main);
if (!fs.existsSync(entry) && fs.existsSync(path.join(pkgDir, 'src', 'index.ts'))) {
  // a source checkout (docs/fidelity.md "Which oracle"): run its TypeScript through tsx,
  // which must be installed where that checkout's own dependencies are
  const tsx = createRequire(path.join(pkgDir, 'package.json')).resolve('tsx/esm/api');
  (await import(tsx)).register();
  entry = path.join(pkgDir, 'src', 'index.ts');
}
const ks = await import(entry);
// the completion enumeration and the scores alone when the engine exports them (the corpus
// commit does): control() also computes the whole frame flow, which the harness never reads
const completions = ks.completions
  ?? ((state, partial) => ks.control(state, partial, state.frame?.activePlayerIndex).completion);
const scores = ks.scores ?? ((state) => ks.control(state, [], state.frame?.activePlayerIndex).score);

const GOODS = ['peat', 'penny', 'clay', 'wood', 'grain', 'sheep', 'stone', 'flour', 'grape',
  'nickel', 'malt', 'coal', 'book', 'ceramic', 'whiskey', 'straw', 'meat', 'ornament', 'bread',
  'wine', 'beer', 'reliquary'];

function goodsOf(p) {
  const out = {};
  for (const g of GOODS) if (p[g]) out[g] = p[g];
  return out;
}

function summary(state) {
  const f = state.frame ?? {};
  return {
    status: state.status,
    round: f.round ?? null,
    settlement_round: f.settlementRound ?? null,
    current: f.currentPlayerIndex ?? null,
    active: f.activePlayerIndex ?? null,
    neutral_phase: !!f.neutralBuildingPhase,
    bonus_round: !!f.bonusRoundPlacement,
    settle_turn: !!(f.bonusActions ?? []).includes('SETTLE'),
    frame: f.next ?? null,
    players: (state.players ?? []).slice(0, state.config?.players ?? 0).map((p) => ({
      color: p.color, goods: goodsOf(p), wonders: p.wonders,
    })),
    neutral: state.neutralPlayer?.color ?? null,
    scores: scores(state).map((s) => ({
      goods: s.goods, economic: s.economic, dwelling: s.settlements, total: s.total,
    })),
  };
}

function step(state, tokens) {
  try {
    const next = ks.reducer(state, tokens);
    return next === undefined ? [undefined, 'kennerspiel rejected the move'] : [next, null];
  } catch (e) {
    return [undefined, `kennerspiel threw: ${e.message}`];
  }
}

function replay(moves) {
  let state = ks.initialState;
  const commits = [];
  for (let i = 0; i < moves.length; i++) {
    const [next, error] = step(state, moves[i]);
    if (next === undefined) {
      return { ok: true, applied: i, rejected: i, error, commits, final: summary(state) };
    }
    state = next;
    if (moves[i][0] === 'COMMIT') commits.push({ after_move: i, ...summary(state) });
  }
  return { ok: true, applied: moves.length, rejected: null, error: null, commits,
    final: summary(state) };
}

// the raw state after the moves and the completion of a partial command (for debugging)
function inspect(moves, partial) {
  let state = ks.initialState;
  for (const m of moves) {
    const [next, error] = step(state, m);
    if (next === undefined) return { ok: false, error: `${m.join(' ')}: ${error}` };
    state = next;
  }
  return { ok: true, state, completion: completions(state, partial) };
}

// mulberry32: a small seeded generator (deterministic games from a seed)
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// One random command from kennerspiel's completions: a first token (COMMIT only with
// probability commitP while anything else is offered), then tokens until '' (complete).
function randomCommand(state, rand, commitP) {
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const deadEnds = new Set(); // first tokens that led nowhere in this position
  for (let attempt = 0; attempt < 50; attempt++) {
    let first = completions(state, []) ?? [];
    first = first.filter((t) => t !== '' && !deadEnds.has(t));
    if (first.length === 0) return null;
    // BUILD half the time it is offered (the 2-player games end only once the display
    // empties), CONVERT and land purchases rarely, COMMIT with probability commitP
    const main = first.filter((t) => !['COMMIT', 'CONVERT', 'BUY_PLOT', 'BUY_DISTRICT'].includes(t));
    const extra = first.filter((t) => ['CONVERT', 'BUY_PLOT', 'BUY_DISTRICT'].includes(t));
    let tok;
    if (first.includes('BUILD') && rand() < 0.5) tok = 'BUILD';
    else if (extra.length && rand() < 0.1) tok = pick(extra);
    else if (main.length && (!first.includes('COMMIT') || rand() >= commitP)) tok = pick(main);
    else if (first.includes('COMMIT')) tok = 'COMMIT';
    else tok = pick(first);
    const partial = [tok];
    for (let depth = 0; depth < 40; depth++) {
      const comp = completions(state, partial) ?? [];
      if (comp.length === 0) { // dead end: start again
        if (partial.length === 1) deadEnds.add(tok);
        break;
      }
      const t = pick(comp);
      if (t === '') return partial;
      // a completion may hold several tokens ("0 0" for coordinates): commands are split on
      // whitespace, as kennerspiel's own client does
      partial.push(...t.split(/\s+/).filter((x) => x !== ''));
    }
  }
  return null;
}

// Whether some command starting with `partial` is accepted in `state` (its completions, depth
// first, each tried on the reducer).
function anyAccepted(state, partial, depth = 0) {
  if (depth > 4) return false;
  for (const t of completions(state, partial) ?? []) {
    if (t === '') {
      if (step(state, partial)[0] !== undefined) return true;
      continue;
    }
    if (anyAccepted(state, [...partial, ...t.split(/\s+/).filter((x) => x !== '')], depth + 1)) {
      return true;
    }
  }
  return false;
}

// Whether, after a solo neutral build, every building the neutral still has to build has a
// cell kennerspiel's BUILD handler accepts (its move list offers covers its handler refuses, D9:
// where no cell passes, the game is stuck). Outside the neutral building phase: true.
function leavesRoom(state) {
  if (!state.frame?.neutralBuildingPhase || state.status === 'FINISHED') return true;
  const buildings = (completions(state, ['BUILD']) ?? []).filter((t) => t !== '');
  return buildings.every((b) => anyAccepted(state, ['BUILD', b]));
}

// Every accepted neutral BUILD in a random order, the first that leaves room: [cmd, next] or
// null (when the random draws found none).
function roomyBuild(state, rand) {
  const cmds = [];
  for (const b of (completions(state, ['BUILD']) ?? []).filter((t) => t !== '')) {
    for (const c of completions(state, ['BUILD', b]) ?? []) {
      if (c !== '') cmds.push(['BUILD', b, ...c.split(/\s+/).filter((x) => x !== '')]);
    }
  }
  for (let i = cmds.length - 1; i > 0; i--) { // Fisher-Yates
    const j = Math.floor(rand() * (i + 1));
    [cmds[i], cmds[j]] = [cmds[j], cmds[i]];
  }
  for (const cmd of cmds) {
    const [next] = step(state, cmd);
    if (next !== undefined && leavesRoom(next)) return [cmd, next];
  }
  return null;
}

function randomGame({ config, colors, seed, max_commands: maxCommands = 5000,
  commit_p: commitP = 0.25 }) {
  const moves = [['CONFIG', ...config], ['START', ...colors]];
  let actors = '--';
  let state = ks.initialState;
  for (const m of moves) {
    const [next, error] = step(state, m);
    if (next === undefined) return { ok: false, error: `${m.join(' ')}: ${error}` };
    state = next;
  }
  const rand = rng(seed);
  const commits = [];
  const generatedRejected = [];
  let ended = 'max_commands';
  for (let n = 0; n < maxCommands; n++) {
    if (state.status === 'FINISHED') { ended = 'finished'; break; }
    // the 4-player short game's frame table loops back to round 1 after settlement D (D16)
    if (commits.length > 1 && commits[commits.length - 1].round < commits[commits.length - 2].round) {
      ended = 'loop';
      break;
    }
    // a solo neutral BUILD that would leave a later forced build without an accepted cell is
    // drawn again (kept only if no other command is found)
    let chosen = null;
    let fallback = null;
    for (let tries = 0; tries < 20 && chosen === null; tries++) {
      const cmd = randomCommand(state, rand, commitP);
      if (cmd === null) break;
      const [next] = step(state, cmd);
      if (next === undefined) { generatedRejected.push(cmd); continue; }
      if (cmd[0] === 'BUILD' && state.frame?.neutralBuildingPhase && !leavesRoom(next)) {
        fallback ??= [cmd, next];
        continue;
      }
      chosen = [cmd, next];
    }
    if (chosen === null && fallback !== null) chosen = roomyBuild(state, rand) ?? fallback;
    if (chosen === null) { ended = 'stuck'; break; }
    const [cmd, next] = chosen;
    actors += state.players[state.frame.activePlayerIndex].color;
    state = next;
    moves.push(cmd);
    if (cmd[0] === 'COMMIT') commits.push({ after_move: moves.length - 1, ...summary(state) });
  }
  if (state.status === 'FINISHED') ended = 'finished';
  return { ok: true, moves, actors, commits, final: summary(state), ended,
    generated_rejected: generatedRejected };
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  let answer;
  try {
    const req = JSON.parse(line);
    if (req.op === 'replay') answer = replay(req.moves);
    else if (req.op === 'random') answer = randomGame(req);
    else if (req.op === 'inspect') answer = inspect(req.moves, req.partial ?? []);
    else if (req.op === 'version') answer = { ok: true, package: pkg.name, version: pkg.version };
    else answer = { ok: false, error: `unknown op ${JSON.stringify(req.op)}` };
  } catch (e) {
    answer = { ok: false, error: `${e.name}: ${e.message}` };
  }
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
