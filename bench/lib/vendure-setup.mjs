// Vendure 3.7.3 set up by hand, beside what bench/vendure-side-by-side.mjs does itself: installs it from npm
// into VENDURE_DIR and populates the database `vendure_bench` (kept) with BENCH_VENDURE_PRODUCTS products
// (default 1,000), then says how to start it.
//
//   VENDURE_DIR=/work/vendure-bench node bench/lib/vendure-setup.mjs
import path from "node:path";
import { installVendure, isPopulated, populateVendure } from "./vendure.mjs";

if (!process.env.VENDURE_DIR) throw new Error("set VENDURE_DIR to the folder Vendure is installed into (outside this repository)");
const vendureDir = path.resolve(process.env.VENDURE_DIR);
const products = Number(process.env.BENCH_VENDURE_PRODUCTS ?? 1_000);
installVendure(vendureDir);
if (await isPopulated("vendure_bench", products)) console.log(`vendure_bench already holds ${products} products`);
else console.log(`vendure_bench populated in ${await populateVendure({ vendureDir, databaseName: "vendure_bench", products })} s`);
console.log(`start it: VENDURE_DIR=${vendureDir} node bench/lib/vendure-app.mjs serve vendure_bench 3000 (shop API at /shop-api)`);
