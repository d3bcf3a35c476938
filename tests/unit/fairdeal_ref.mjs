// Independent reference implementation of the fair deal, for cross-checking engine/fairdeal.py.
// Reads a JSON array of seeds (32 hex digits) on stdin and writes a JSON array of
// {seed, commitment, outputs, deck}: the SHA-256 commitment, the first four generator outputs
// after the twelve discarded ones, and the 52 shuffled cards (card = suit * 13 + rank, clubs,
// diamonds, hearts, spades; A 2 ... 10 J Q K).
import { createHash } from "node:crypto";

const TWO_32 = 2 ** 32;

function sfc32(seedHex) {
  // BigInt words avoid any doubt about 32-bit signed arithmetic in plain numbers.
  const mask = (1n << 32n) - 1n;
  let a = BigInt("0x" + seedHex.slice(0, 8));
  let b = BigInt("0x" + seedHex.slice(8, 16));
  let c = BigInt("0x" + seedHex.slice(16, 24));
  let d = BigInt("0x" + seedHex.slice(24, 32));
  const next = () => {
    const t = (a + b + d) & mask;
    d = (d + 1n) & mask;
    a = b ^ (b >> 9n);
    b = (c + (c << 3n)) & mask;
    c = ((c << 21n) | (c >> 11n)) & mask;
    c = (c + t) & mask;
    return Number(t);
  };
  for (let k = 0; k < 12; k++) next();
  return next;
}

function uniformBelow(next, n) {
  const limit = TWO_32 - (TWO_32 % n);
  let r = next();
  while (r >= limit) r = next();
  return r % n;
}

function shuffledDeck(seedHex) {
  const next = sfc32(seedHex);
  const deck = Array.from({ length: 52 }, (_, k) => k);
  for (let i = 51; i >= 1; i--) {
    const j = uniformBelow(next, i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

function firstOutputs(seedHex, count) {
  const next = sfc32(seedHex);
  return Array.from({ length: count }, () => next());
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const seeds = JSON.parse(input);
  const out = seeds.map((seed) => {
    if (!/^[0-9a-f]{32}$/.test(seed)) throw new Error(`bad seed ${seed}`);
    return {
      seed,
      commitment: createHash("sha256").update(seed, "ascii").digest("hex"),
      outputs: firstOutputs(seed, 4),
      deck: shuffledDeck(seed),
    };
  });
  process.stdout.write(JSON.stringify(out));
});
