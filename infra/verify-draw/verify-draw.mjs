#!/usr/bin/env node
// verify-draw.mjs — a second, independent verifier of a seckill flash-sale draw.
//
// It reads a recorded sale written by `./seckill draw export` (format "seckill-draw-record:v1") and recomputes
// the draw from the file and the beacon's public key alone: no code, configuration or network of the Java
// project is used. The rules are those of docs/contracts.md, "The draw" (scheme "seckill-draw:v2").
//
//   node verify-draw.mjs FILE [--json] [--public-key HEX] [--allow-create-time]
//
// exit 0: "VERIFIED ..." (every check passed; a draw whose beacon round is not due yet is "pending", not a fault)
// exit 1: "FAILED ..." then one "- <fault>" line per fault
// exit 2: one line on stderr (usage error, unreadable file, or a file that is not a seckill-draw-record:v1)

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';

export const FORMAT = 'seckill-draw-record:v1';
export const DRAW_SCHEME = 'seckill-draw:v2';
export const BEACON_SCHEME = 'bls-unchained-g1-rfc9380';
// drand quicknet (League of Entropy): https://api.drand.sh/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/info
export const QUICKNET = Object.freeze({
  chain: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510' +
    'd1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  genesis: 1692803367,
  period: 3,
});
const PENDING_GRACE_MS = 60_000;
const SHORT = bls12_381.shortSignatures; // signatures in G1 (48 bytes), keys in G2 (96 bytes)
export const SIG_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';

export class FormatError extends Error {}

// ---------------------------------------------------------------- bytes, hex, hashing

const utf8 = new TextEncoder();
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

export function hex(bytes) {
  return Buffer.from(bytes).toString('hex');
}

export function fromHex(s, bytes) {
  if (typeof s !== 'string' || !/^(?:[0-9a-fA-F]{2})*$/.test(s)) return null;
  if (bytes !== undefined && s.length !== 2 * bytes) return null;
  return new Uint8Array(Buffer.from(s, 'hex'));
}

function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) {
    out.set(p, i);
    i += p.length;
  }
  return out;
}

function decodeBase64Strict(s) {
  if (typeof s !== 'string' || s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return null;
  const b = Buffer.from(s, 'base64');
  if (b.toString('base64') !== s) return null; // non-canonical padding bits
  return new Uint8Array(b);
}

/** RFC 9162 §2.1.1 Merkle Tree Hash over the given leaf byte strings. */
export function merkleTreeHash(values) {
  const leaves = values.map((v) => sha256(concat(Uint8Array.of(0x00), v)));
  const mth = (lo, hi) => {
    const n = hi - lo;
    if (n === 0) return sha256(new Uint8Array(0));
    if (n === 1) return leaves[lo];
    let k = 1;
    while (k * 2 < n) k *= 2; // largest power of two smaller than n
    return sha256(concat(Uint8Array.of(0x01), mth(lo, lo + k), mth(lo + k, hi)));
  };
  return mth(0, leaves.length);
}

// ---------------------------------------------------------------- JSON without losing 64-bit integers

/**
 * A strict JSON parser (RFC 8259) that keeps integers exact: an integer literal becomes a Number when it is a safe
 * integer and a BigInt otherwise, so a Java `long` id survives. A literal with a fraction or an exponent becomes a
 * NonInteger (never accepted where an integer is required, as `1.0` is not an integer literal).
 * Duplicate keys: the last one wins (as JSON.parse and Jackson's default).
 */
export function parseJson(text) {
  let i = 0;
  const fail = (what) => {
    throw new SyntaxError(`${what} at position ${i}`);
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const o = {};
      ws();
      if (text[i] === '}') {
        i++;
        return o;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const k = string();
        ws();
        if (text[i] !== ':') fail("expected ':'");
        i++;
        Object.defineProperty(o, k, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return o;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      const a = [];
      ws();
      if (text[i] === ']') {
        i++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return a;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    if (text.startsWith('true', i)) return (i += 4), true;
    if (text.startsWith('false', i)) return (i += 5), false;
    if (text.startsWith('null', i)) return (i += 4), null;
    const m = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m) fail('unexpected character');
    i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const n = Number(m[0]);
      return Number.isSafeInteger(n) ? n : BigInt(m[0]);
    }
    return new NonInteger(Number(m[0]));
  };
  const string = () => {
    const start = ++i;
    let out = '';
    let run = start;
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(run, i++);
        return out;
      }
      if (c < 0x20) fail('control character in string');
      if (c === 0x5c) {
        out += text.slice(run, i);
        const e = text[i + 1];
        const simple = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }[e];
        if (simple !== undefined) {
          out += simple;
          i += 2;
        } else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else fail('bad escape');
        run = i;
        continue;
      }
      i++;
    }
  };
  const v = value();
  ws();
  if (i !== text.length) fail('trailing characters');
  return v;
}

/** A JSON number written with a fraction or an exponent (never an integer field's valid value). */
class NonInteger {
  constructor(n) {
    this.n = n;
  }
  toJSON() {
    return this.n;
  }
}

const isInt = (x) => typeof x === 'bigint' || Number.isSafeInteger(x);
const intStr = (x) => String(x);
const big = (x) => BigInt(x);
const cmpInt = (a, b) => (big(a) < big(b) ? -1 : big(a) > big(b) ? 1 : 0);
/** JSON text of a parsed value (BigInt as its digits). */
const js = (v) => JSON.stringify(v ?? null, (k, x) => (typeof x === 'bigint' ? x.toString() : x));

// ---------------------------------------------------------------- instants

const INSTANT =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]{1,9}))?)?(Z|[+-][0-9]{2}:[0-9]{2})$/i;

/** ISO-8601 instant → epoch milliseconds, truncating sub-millisecond digits; null when not an instant. */
export function instantMs(s) {
  if (typeof s !== 'string') return null;
  const m = INSTANT.exec(s);
  if (!m) return null;
  const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((k) => Number(m[k]));
  const sec = m[6] === undefined ? 0 : Number(m[6]);
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || sec > 59) return null;
  const dt = new Date(0);
  dt.setUTCFullYear(y, mo - 1, d);
  if (dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) return null; // e.g. 02-30
  dt.setUTCHours(h, mi, sec, 0);
  let ms = dt.getTime() + (m[7] === undefined ? 0 : Number((m[7] + '00').slice(0, 3)));
  if (m[8].toUpperCase() !== 'Z') {
    const sign = m[8][0] === '-' ? -1 : 1;
    const [oh, om] = m[8].slice(1).split(':').map(Number);
    if (oh > 18 || om > 59) return null;
    ms -= sign * (oh * 3600_000 + om * 60_000);
  }
  return ms;
}

export const iso = (ms) => new Date(ms).toISOString();

// ---------------------------------------------------------------- beacon

export function roundMessage(round) {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(round));
  return sha256(b);
}

/** Decodes a compressed G2 public key; null when it is not a valid, non-identity key of the prime-order subgroup. */
export function decodePublicKey(hexKey) {
  const bytes = fromHex(hexKey, 96);
  if (!bytes) return null;
  try {
    const p = bls12_381.G2.Point.fromBytes(bytes);
    p.assertValidity();
    if (p.is0()) return null;
    return p;
  } catch {
    return null;
  }
}

/**
 * Verifies a bls-unchained-g1-rfc9380 round: the signature is a canonical compressed G1 point of the prime-order
 * subgroup (not the identity), and e(sig, g2) == e(H(SHA-256(round BE64)), pk) with hash-to-G1 DST SIG_DST.
 * Returns null when it verifies, else the reason.
 */
export function verifyRound(pk, round, sigBytes) {
  if (!pk) return 'no usable public key';
  if (!sigBytes || sigBytes.length !== 48) return 'the signature is not 48 bytes of hex';
  let sig;
  try {
    sig = SHORT.Signature.fromBytes(sigBytes);
    if (sig.is0()) return 'the signature is the identity point';
    if (hex(SHORT.Signature.toBytes(sig)) !== hex(sigBytes)) return 'the signature is not canonically encoded';
  } catch (e) {
    return `the signature is not a G1 point of the subgroup (${e.message})`;
  }
  try {
    const h = SHORT.hash(roundMessage(round), SIG_DST);
    return SHORT.verify(sig, h, pk) ? null : 'pairing check failed';
  } catch (e) {
    return `verification error (${e.message})`;
  }
}

// ---------------------------------------------------------------- the record

function need(cond, what) {
  if (!cond) throw new FormatError(what);
}

/** Checks the envelope (exit 2 when it is not a record) and returns it with commands decoded and sorted. */
export function readRecord(text) {
  let rec;
  try {
    rec = parseJson(text);
  } catch (e) {
    throw new FormatError(`not JSON: ${e.message}`);
  }
  need(rec !== null && typeof rec === 'object' && !Array.isArray(rec), 'not a JSON object');
  need(rec.format === FORMAT, `format is ${js(rec.format)}, expected "${FORMAT}"`);
  need(isInt(rec.goodsId), 'goodsId is not an integer');
  const b = rec.beacon;
  need(b && typeof b === 'object' && !Array.isArray(b), 'beacon is missing');
  need(typeof b.chain === 'string' && /^[0-9a-fA-F]+$/.test(b.chain), 'beacon.chain is not hex');
  need(typeof b.publicKey === 'string', 'beacon.publicKey is not a string');
  need(isInt(b.genesis), 'beacon.genesis is not an integer');
  need(isInt(b.period) && big(b.period) > 0n, 'beacon.period is not a positive integer');
  need(typeof b.scheme === 'string', 'beacon.scheme is not a string');
  need(Array.isArray(rec.commands), 'commands is not an array');
  need(Array.isArray(rec.ledger), 'ledger is not an array');
  need(Array.isArray(rec.outcomes), 'outcomes is not an array');
  const commands = rec.commands.map((c, k) => {
    need(c && typeof c === 'object', `commands[${k}] is not an object`);
    need(Number.isSafeInteger(c.offset) && c.offset >= 0, `commands[${k}].offset is not an offset`);
    need(Number.isSafeInteger(c.timestamp), `commands[${k}].timestamp is not epoch milliseconds`);
    need(c.timestampType === 'LogAppendTime' || c.timestampType === 'CreateTime',
      `commands[${k}].timestampType is neither LogAppendTime nor CreateTime`);
    need(c.key === null || typeof c.key === 'string', `commands[${k}].key is not a string`);
    const bytes = decodeBase64Strict(c.value);
    need(bytes !== null, `commands[${k}].value is not base64`);
    return { offset: c.offset, timestamp: c.timestamp, timestampType: c.timestampType, key: c.key, bytes };
  });
  commands.sort((x, y) => x.offset - y.offset);
  for (let k = 1; k < commands.length; k++)
    need(commands[k].offset !== commands[k - 1].offset, `two commands at offset ${commands[k].offset}`);
  const ledger = rec.ledger.map((l, k) => {
    need(l && typeof l === 'object' && Number.isSafeInteger(l.offset), `ledger[${k}].offset is not an offset`);
    need(l.entry && typeof l.entry === 'object' && !Array.isArray(l.entry), `ledger[${k}].entry is not an object`);
    return { offset: l.offset, entry: l.entry };
  });
  ledger.sort((x, y) => x.offset - y.offset);
  const outcomes = rec.outcomes.map((o, k) => {
    need(o && typeof o === 'object', `outcomes[${k}] is not an object`);
    need(o.outcome && typeof o.outcome === 'object' && !Array.isArray(o.outcome), `outcomes[${k}].outcome is not an object`);
    return o.outcome;
  });
  return { goodsId: rec.goodsId, beacon: b, commands, ledger, outcomes };
}

function commandJson(cmd) {
  if (cmd.json !== undefined) return cmd.json;
  try {
    const v = parseJson(utf8Strict.decode(cmd.bytes));
    cmd.json = v && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    cmd.json = null;
  }
  return cmd.json;
}

/** A purchase of the goods per the contract, or null. */
function purchaseOf(cmd, goodsId) {
  const v = commandJson(cmd);
  if (!v || v.type !== 'purchase') return null;
  if (!isInt(v.goodsId) || big(v.goodsId) !== big(goodsId)) return null;
  if (typeof v.requestId !== 'string' || v.requestId.length === 0) return null;
  if (!isInt(v.userId) || big(v.userId) < 1n) return null;
  if (!isInt(v.quantity) || big(v.quantity) < 1n || big(v.quantity) > 100n) return null;
  const acceptedAtMs = instantMs(v.acceptedAt);
  if (acceptedAtMs === null) return null;
  return { requestId: v.requestId, userId: v.userId, quantity: Number(v.quantity), acceptedAtMs };
}

const sameGoods = (x, goodsId) => isInt(x) && big(x) === big(goodsId);

// ---------------------------------------------------------------- the check

/**
 * Verifies a record (the result of readRecord). options: {publicKey?: hex, allowCreateTime?: bool}.
 * Returns {verified, faults[], notes[], draws[]}.
 */
export function verify(record, options = {}) {
  const { goodsId, beacon, commands, ledger } = record;
  const G = intStr(goodsId);
  const faults = [];
  const notes = [];
  const draws = [];
  const fault = (s) => faults.push(s);

  // --- the beacon and the key to trust
  const chain = beacon.chain.toLowerCase();
  let genesis = Number(beacon.genesis);
  let period = Number(beacon.period);
  let keyHex;
  if (beacon.scheme !== BEACON_SCHEME) fault(`beacon scheme "${beacon.scheme}" is not ${BEACON_SCHEME}`);
  if (chain === QUICKNET.chain) {
    keyHex = QUICKNET.publicKey;
    if (beacon.publicKey.toLowerCase() !== QUICKNET.publicKey)
      fault(`the file's beacon publicKey is not drand quicknet's published key ${QUICKNET.publicKey}`);
    if (genesis !== QUICKNET.genesis || period !== QUICKNET.period)
      fault(`the file's beacon genesis/period ${beacon.genesis}/${beacon.period} are not quicknet's ${QUICKNET.genesis}/${QUICKNET.period}`);
    genesis = QUICKNET.genesis;
    period = QUICKNET.period;
    if (options.publicKey !== undefined && options.publicKey.toLowerCase() !== QUICKNET.publicKey)
      notes.push(`note: --public-key differs from drand quicknet's published key; checking against --public-key`);
  } else {
    keyHex = beacon.publicKey;
    notes.push(`note: beacon chain ${chain} is not drand's quicknet: whoever runs it knows its rounds`);
  }
  if (options.publicKey !== undefined) {
    if (chain !== QUICKNET.chain && beacon.publicKey.toLowerCase() !== options.publicKey.toLowerCase())
      fault(`the file's beacon publicKey is not the key given with --public-key`);
    keyHex = options.publicKey;
  }
  const pk = decodePublicKey(keyHex);
  if (!pk) fault(`the beacon public key ${keyHex} is not a compressed G2 point of the subgroup`);
  const roundTimeMs = (r) => (genesis + (Number(r) - 1) * period) * 1000;

  // --- indexes
  const byOffset = new Map(commands.map((c) => [c.offset, c]));
  const myLedger = ledger.filter((l) => sameGoods(l.entry.goodsId, goodsId));
  const myOutcomes = record.outcomes.filter((o) => o.goodsId === undefined || sameGoods(o.goodsId, goodsId));
  let newestMs = -Infinity;
  for (const c of commands) newestMs = Math.max(newestMs, c.timestamp);
  for (const l of ledger) {
    const t = instantMs(l.entry.at);
    if (t !== null) newestMs = Math.max(newestMs, t);
  }

  // --- every drawn OPENED (once per open offset)
  const opens = [];
  const seenOpen = new Set();
  for (const l of myLedger) {
    const e = l.entry;
    if (e.type !== 'OPENED' || !e.draw || typeof e.draw !== 'object') continue;
    if (!Number.isSafeInteger(e.commandOffset)) {
      fault(`the drawn OPENED at ledger offset ${l.offset} has no commandOffset`);
      continue;
    }
    if (seenOpen.has(e.commandOffset)) continue;
    seenOpen.add(e.commandOffset);
    opens.push(l);
  }
  if (opens.length === 0) fault(`no drawn sale: the file has no OPENED entry with a draw for goods ${G}`);

  const createTime = new Set(); // offsets of window records with CreateTime
  for (const openL of opens) {
    const d = checkDraw(openL);
    if (d) draws.push(d);
  }
  const createTimeRecords = [...createTime].sort((a, b) => a - b);
  if (createTimeRecords.length > 0) {
    const msg =
      `window records carry CreateTime: the cutoff was judged on producers' clocks ` +
      `(${createTimeRecords.length} record(s), offsets ${createTimeRecords.slice(0, 10).join(', ')}${createTimeRecords.length > 10 ? ', …' : ''})`;
    if (options.allowCreateTime) notes.push(`note: ${msg}`);
    else fault(msg);
  }
  return { goodsId: G, verified: faults.length === 0, faults, notes, draws };

  function checkDraw(openL) {
    const opened = openL.entry;
    const od = opened.draw;
    const openOffset = opened.commandOffset;
    const where = `the draw opened at offset ${openOffset}`;
    const report = { openOffset, round: isInt(od.beaconRound) ? od.beaconRound : null, entries: null, buyers: null,
      digest: null, seed: null, winners: [], status: 'drawn', leftOut: [] };

    // The open_sale command.
    const openCmd = byOffset.get(openOffset);
    const open = openCmd ? commandJson(openCmd) : null;
    if (!open || open.type !== 'open_sale' || !sameGoods(open.goodsId, goodsId)) {
      fault(`${where}: no open_sale command of goods ${G} at offset ${openOffset} in the file`);
      return report;
    }
    const startMs = instantMs(open.startAt);
    const stock = open.stock;
    const limit = open.perUserLimit === undefined ? 1 : open.perUserLimit;
    if (startMs === null || !isInt(stock) || big(stock) < 0n || !isInt(limit) || big(limit) < 1n || !Number.isSafeInteger(open.windowMs)) {
      fault(`${where}: the open_sale has no valid startAt, stock, perUserLimit or windowMs`);
      return report;
    }
    // The OPENED's promises.
    if (od.scheme !== DRAW_SCHEME) fault(`${where}: draw scheme "${od.scheme}" is not ${DRAW_SCHEME}`);
    if (od.fairness !== open.fairness) fault(`${where}: OPENED's fairness ${od.fairness} is not the open_sale's ${open.fairness}`);
    if (od.windowMs !== open.windowMs) fault(`${where}: OPENED's windowMs ${od.windowMs} is not the open_sale's ${open.windowMs}`);
    let winStart, winEnd;
    if (open.fairness === 'lottery') [winStart, winEnd] = [startMs, startMs + open.windowMs];
    else if (open.fairness === 'registration') [winStart, winEnd] = [startMs - open.windowMs, startMs];
    else {
      fault(`${where}: the open_sale's fairness "${open.fairness}" is neither lottery nor registration`);
      return report;
    }
    const promisedEnd = instantMs(od.windowEndAt);
    if (promisedEnd !== winEnd)
      fault(`${where}: OPENED's windowEndAt ${od.windowEndAt} is not the window's end ${iso(winEnd)}`);
    const cutoffMs = instantMs(od.cutoffAt);
    if (cutoffMs === null) {
      fault(`${where}: OPENED's cutoffAt ${js(od.cutoffAt)} is not an instant`);
      return report;
    }
    if (!isInt(od.beaconRound) || big(od.beaconRound) < 1n) {
      fault(`${where}: OPENED's beaconRound ${js(od.beaconRound)} is not a round`);
      return report;
    }
    const round = od.beaconRound; // Number or BigInt
    if (typeof od.beaconChain !== 'string' || od.beaconChain.toLowerCase() !== chain)
      fault(`${where}: OPENED's beaconChain ${od.beaconChain} is not the file's beacon chain ${chain}`);
    const roundMs = roundTimeMs(round);
    // 3. The round must not have existed at the cutoff.
    if (!(roundMs > cutoffMs))
      fault(`round ${round} existed at the cutoff (published ${iso(roundMs)}, cutoff ${iso(cutoffMs)})`);

    // The entries.
    const entries = [];
    for (const c of commands) {
      if (c.offset <= openOffset || c.key !== G) continue;
      const p = purchaseOf(c, goodsId);
      if (!p || p.acceptedAtMs < winStart || p.acceptedAtMs >= winEnd) continue;
      if (c.timestampType === 'CreateTime') createTime.add(c.offset);
      if (c.timestamp < winStart || c.timestamp > cutoffMs) continue;
      entries.push({ ...p, offset: c.offset, timestamp: c.timestamp, bytes: c.bytes });
    }

    // The DRAWN entry.
    const drawnOpId = `drawn:${G}:${openOffset}`;
    const drawnLs = myLedger.filter((l) => l.entry.type === 'DRAWN' && l.entry.opId === drawnOpId);
    if (drawnLs.length === 0) {
      report.status = 'pending';
      report.entries = entries.length;
      report.buyers = new Set(entries.map((e) => intStr(e.userId))).size;
      report.digest = hex(merkleTreeHash(entries.map((e) => e.bytes)));
      if (newestMs > roundMs + PENDING_GRACE_MS) {
        report.status = 'missing';
        fault(`no DRAWN entry for the draw opened at offset ${openOffset} (round ${round} was due at ${iso(roundMs)}; the record runs to ${iso(newestMs)})`);
      } else {
        notes.push(`pending: ${where} waits for beacon round ${round} (due ${iso(roundMs)}); the record runs to ${Number.isFinite(newestMs) ? iso(newestMs) : 'nothing'}`);
      }
      return report;
    }
    const drawnL = drawnLs[0];
    const dd = drawnL.entry.draw && typeof drawnL.entry.draw === 'object' ? drawnL.entry.draw : {};
    for (const other of drawnLs.slice(1))
      if (js(other.entry.draw) !== js(drawnL.entry.draw))
        fault(`${where}: DRAWN entries at ledger offsets ${drawnL.offset} and ${other.offset} disagree`);

    // 2. DRAWN's facts are OPENED's.
    const sameFact = (k) => {
      if (k === 'windowEndAt' || k === 'cutoffAt') return instantMs(dd[k]) !== null && instantMs(dd[k]) === instantMs(od[k]);
      if (k === 'beaconChain') return typeof dd[k] === 'string' && typeof od[k] === 'string' && dd[k].toLowerCase() === od[k].toLowerCase();
      if (k === 'beaconRound') return isInt(dd[k]) && isInt(od[k]) && big(dd[k]) === big(od[k]);
      return dd[k] === od[k];
    };
    for (const k of ['scheme', 'fairness', 'windowMs', 'windowEndAt', 'cutoffAt', 'beaconChain', 'beaconRound'])
      if (!sameFact(k))
        fault(`${where}: DRAWN's ${k} ${js(dd[k])} differs from OPENED's ${js(od[k])}`);

    // 5. DRAWN made after the cutoff.
    const drawnAt = instantMs(drawnL.entry.at);
    if (drawnAt === null) fault(`${where}: DRAWN has no valid "at"`);
    else if (drawnAt < cutoffMs) fault(`DRAWN at ${drawnL.entry.at}, before the cutoff ${od.cutoffAt}`);

    // 6. Entries and digest.
    const digestAll = hex(merkleTreeHash(entries.map((e) => e.bytes)));
    const claimedDigest = typeof dd.digest === 'string' ? dd.digest.toLowerCase() : null;
    let drawn = entries; // the entries the draw is judged on
    if (claimedDigest === digestAll && dd.entries === entries.length) {
      // as recorded
    } else {
      const through = dd.throughOffset;
      const prefix = Number.isSafeInteger(through) ? entries.filter((e) => e.offset <= through) : null;
      const later = prefix ? entries.filter((e) => e.offset > through) : [];
      if (prefix && later.length > 0 && claimedDigest === hex(merkleTreeHash(prefix.map((e) => e.bytes)))) {
        for (const e of later) {
          fault(`${e.requestId}: appended at ${iso(e.timestamp)} before the cutoff, left out of the draw`);
          report.leftOut.push(e.requestId);
        }
        drawn = prefix;
        if (dd.entries !== prefix.length)
          fault(`${where}: DRAWN says ${js(dd.entries)} entries, its digest covers ${prefix.length}`);
      } else {
        if (dd.entries !== entries.length)
          fault(`${where}: DRAWN says ${js(dd.entries)} entries, the record has ${entries.length}`);
        if (claimedDigest !== digestAll)
          fault(`${where}: DRAWN's digest ${dd.digest} is not the entries' digest ${digestAll}`);
      }
    }
    const digest = drawn === entries ? digestAll : hex(merkleTreeHash(drawn.map((e) => e.bytes)));
    const buyers = [...new Map(drawn.map((e) => [intStr(e.userId), e.userId])).values()];
    Object.assign(report, { entries: drawn.length, buyers: buyers.length, digest });

    // 7 (buyers). The count of distinct buyers.
    if (dd.buyers !== buyers.length)
      fault(`${where}: DRAWN says ${js(dd.buyers)} buyers, the entries have ${buyers.length}`);

    // 4. The beacon round.
    const sigBytes = fromHex(dd.signature, 48);
    const bad = verifyRound(pk, round, sigBytes);
    if (bad !== null) fault(`beacon round ${round}'s signature does not verify (${bad})`);
    if (!sigBytes) return report;

    // 7 (seed). randomness = SHA-256(signature); seed = SHA-256("seckill-draw:v2:<goods>:<hex D>:<hex randomness>").
    const randomness = hex(sha256(sigBytes));
    const seedBytes = sha256(utf8.encode(`${DRAW_SCHEME}:${G}:${digest}:${randomness}`));
    const seed = hex(seedBytes);
    report.seed = seed;
    if (typeof dd.seed !== 'string' || dd.seed.toLowerCase() !== seed)
      fault(`${where}: DRAWN's seed ${dd.seed} is not the recomputed seed ${seed}`);
    if (bad !== null) {
      // Ranking by randomness that is not the beacon's would only turn one fault into a page of them.
      notes.push(`note: ${where}: winners, outcomes and DEDUCTED order not checked: the beacon signature does not verify`);
      return report;
    }

    // The order and the winners.
    const ticket = (u) => hex(sha256(concat(seedBytes, utf8.encode(`${G}:${intStr(u)}`))));
    const order = buyers
      .map((u) => ({ u, t: ticket(u) }))
      .sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : cmpInt(a.u, b.u)))
      .map((x) => x.u);
    const rank = new Map(order.map((u, k) => [intStr(u), k]));
    const byBuyer = new Map(order.map((u) => [intStr(u), []]));
    for (const e of drawn) byBuyer.get(intStr(e.userId)).push(e);
    // where the sale opened in each commands partition deciding it: a goods split into buckets opens each bucket at
    // its own partition's offset (opId <open>@b<n>), and a bucket's outcomes carry its partition's offsets
    const openIn = new Map();
    if (opened.bucket) {
      const sale = opened.opId.slice(0, opened.opId.lastIndexOf('@'));
      for (const l of myLedger) {
        const e = l.entry;
        if (e.type === 'OPENED' && e.bucket && e.opId === `${sale}@b${e.bucket.index}` && isInt(e.commandOffset))
          openIn.set(e.bucket.partition, e.commandOffset);
      }
    }
    const openOf = (o) => (opened.bucket ? openIn.get(o.partition) : openOffset);
    const before = (o) => {
      const at = openOf(o);
      return at === undefined || (Number.isSafeInteger(o.offset) && o.offset < at);
    };
    const decidedBefore = new Set(myOutcomes.filter(before).map((o) => o.requestId));
    const seen = new Set(decidedBefore);
    let units = big(stock);
    const winners = [];
    for (const u of order) {
      let won = false;
      for (const e of byBuyer.get(intStr(u))) {
        if (seen.has(e.requestId)) continue;
        seen.add(e.requestId);
        if (won) continue;
        const q = big(e.quantity);
        if (q > big(limit) || q > units) continue;
        units -= q;
        won = true;
        winners.push(e);
      }
    }
    report.winners = winners.map((e) => e.requestId);

    // 8. Outcomes.
    const winnerIds = new Set(report.winners);
    const entryIds = new Set(drawn.map((e) => e.requestId));
    const successes = myOutcomes.filter((o) => o.outcome === 'SUCCESS');
    for (const w of winners) {
      if (successes.some((o) => o.requestId === w.requestId)) continue;
      const other = myOutcomes.find((o) => o.requestId === w.requestId);
      fault(`${w.requestId}: the draw makes it a winner (user ${intStr(w.userId)}), but it has no SUCCESS outcome` +
        (other ? ` (its outcome is ${other.outcome})` : ''));
    }
    const flagged = new Set();
    for (const o of successes) {
      if (!entryIds.has(o.requestId) || winnerIds.has(o.requestId) || flagged.has(o.requestId)) continue;
      if (before(o)) continue; // decided before the open
      flagged.add(o.requestId);
      fault(`${o.requestId}: SUCCESS, but the draw does not make it a winner`);
    }

    // 9. DEDUCTED in draw order: in each bucket (a goods split into buckets deducts in each in the draw's order; the
    // buckets' entries interleave as their partitions are decided).
    const userOf = new Map();
    for (const e of drawn) if (!userOf.has(e.requestId)) userOf.set(e.requestId, e.userId);
    const maxRankIn = new Map();
    const maxByIn = new Map();
    for (const l of myLedger) {
      const e = l.entry;
      if (e.type !== 'DEDUCTED' || !userOf.has(e.requestId) || decidedBefore.has(e.requestId)) continue;
      if (l.offset <= openL.offset) continue;
      const u = userOf.get(e.requestId);
      if (l.offset < drawnL.offset) {
        fault(`${e.requestId}: DEDUCTED at ledger offset ${l.offset}, before the DRAWN entry (ledger offset ${drawnL.offset})`);
        continue;
      }
      const r = rank.get(intStr(u));
      const b = e.bucket ? e.bucket.index : 0;
      const maxRank = maxRankIn.has(b) ? maxRankIn.get(b) : -1;
      const maxBy = maxByIn.get(b);
      if (r < maxRank)
        fault(`DEDUCTED out of draw order: ${e.requestId} (user ${intStr(u)}, rank ${r + 1}) at ledger offset ${l.offset} ` +
          `comes after ${maxBy.requestId} (user ${intStr(maxBy.u)}, rank ${maxRank + 1}) at ledger offset ${maxBy.offset}`);
      else {
        maxRankIn.set(b, r);
        maxByIn.set(b, { requestId: e.requestId, u, offset: l.offset });
      }
    }
    return report;
  }
}

// ---------------------------------------------------------------- CLI

const USAGE = 'usage: node verify-draw.mjs FILE [--json] [--public-key HEX] [--allow-create-time]';

export function main(argv) {
  const out = [];
  let file;
  const opts = {};
  let json = false;
  try {
    for (let k = 0; k < argv.length; k++) {
      const a = argv[k];
      if (a === '--json') json = true;
      else if (a === '--allow-create-time') opts.allowCreateTime = true;
      else if (a === '--public-key' || a.startsWith('--public-key=')) {
        const v = a === '--public-key' ? argv[++k] : a.slice('--public-key='.length);
        if (v === undefined || !fromHex(v, 96)) throw new FormatError(`--public-key needs 192 hex digits (a compressed G2 point); ${USAGE}`);
        if (!decodePublicKey(v)) throw new FormatError('--public-key is not a compressed G2 point of the subgroup');
        opts.publicKey = v;
      } else if (a === '-h' || a === '--help') throw new FormatError(USAGE);
      else if (a.startsWith('-') && a !== '-') throw new FormatError(`unknown option ${a}; ${USAGE}`);
      else if (file === undefined) file = a;
      else throw new FormatError(`one FILE only; ${USAGE}`);
    }
    if (file === undefined) throw new FormatError(USAGE);
    let text;
    try {
      text = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (e) {
      throw new FormatError(`cannot read ${file}: ${e.code ?? e.message}`);
    }
    const result = verify(readRecord(text), opts);
    if (json) {
      out.push(js({ verified: result.verified, faults: result.faults, notes: result.notes,
        draws: result.draws.map((d) => ({ ...d, round: d.round === null ? null : Number(d.round) })) }));
    } else {
      const n = result.draws.length;
      const pending = result.draws.filter((d) => d.status === 'pending').length;
      if (result.verified)
        out.push(`VERIFIED goods ${result.goodsId}: ${n} draw${n === 1 ? '' : 's'} checked` +
          (pending ? ` (${pending} pending: its beacon round is not due yet)` : ''));
      else {
        out.push(`FAILED goods ${result.goodsId}: ${result.faults.length} fault${result.faults.length === 1 ? '' : 's'}`);
        for (const f of result.faults) out.push(`- ${f}`);
      }
      for (const d of result.draws) {
        if (d.status !== 'drawn') continue;
        out.push(`draw opened at offset ${d.openOffset}: round ${d.round}, ${d.entries} entries, ${d.buyers} buyers, ` +
          `digest ${d.digest}, seed ${d.seed ?? '?'}, winners ${d.winners.length ? d.winners.join(' ') : '(none)'}`);
      }
      out.push(...result.notes);
    }
    process.stdout.write(out.join('\n') + '\n');
    return result.verified ? 0 : 1;
  } catch (e) {
    if (e instanceof FormatError) {
      process.stderr.write(`error: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`error: ${String(e && e.stack ? e.stack.split('\n')[0] : e)}\n`);
    return 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
