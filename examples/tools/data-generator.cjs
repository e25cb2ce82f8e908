'use strict';
// Generates deterministic fake user records from a seed (same seed, same records), for fixtures and demos.
const FIRST = ['Ada', 'Grace', 'Linus', 'Margaret', 'Alan', 'Barbara', 'Dennis', 'Radia', 'Ken', 'Frances', 'Edsger', 'Hedy'];
const LAST = ['Lovelace', 'Hopper', 'Torvalds', 'Hamilton', 'Turing', 'Liskov', 'Ritchie', 'Perlman', 'Thompson', 'Allen', 'Dijkstra', 'Lamarr'];
const CITIES = ['Lisbon', 'Osaka', 'Nairobi', 'Montréal', 'Tallinn', 'Recife', 'Auckland', 'Kraków'];
const DOMAINS = ['example.com', 'example.org', 'example.net'];

function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
exports.run = function run(params) {
  const seed = params.seed === undefined ? 42 : params.seed;
  const fields = params.fields && params.fields.length > 0 ? params.fields : ['id', 'name', 'email'];
  const random = mulberry32(seed);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const records = [];
  for (let i = 0; i < params.count; i++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const full = {
      id: i + 1,
      name: `${first} ${last}`,
      email: `${first}.${last}${Math.floor(random() * 100)}@${pick(DOMAINS)}`.toLowerCase(),
      age: 18 + Math.floor(random() * 60),
      city: pick(CITIES),
      active: random() < 0.7,
    };
    const record = {};
    for (const field of fields) record[field] = full[field];
    records.push(record);
  }
  return { seed, count: records.length, records };
};
