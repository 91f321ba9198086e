import { PGlite } from "@electric-sql/pglite";

let t = Date.now();
const db = new PGlite();
await db.waitReady;
console.log("new", Date.now() - t);
await db.exec("create table a(x int); insert into a values (1)");
t = Date.now();
const c = await db.clone();
await c.waitReady;
console.log("clone", Date.now() - t, (await c.query("select * from a")).rows);
t = Date.now();
const dump = await db.dumpDataDir("none");
console.log("dump", Date.now() - t, dump.size);
t = Date.now();
const l = new PGlite({ loadDataDir: dump });
await l.waitReady;
console.log("load", Date.now() - t, (await l.query("select * from a")).rows);
console.log(process.memoryUsage().rss / 1e6);
