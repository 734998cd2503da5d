// Runs the reference's console redaction over a batch of cases.
// argv: <redact module path> <cases.json> <work dir>; env REDACT_EXPORTS names the export letters.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [modulePath, casesPath, workDir] = process.argv.slice(2);
const names = JSON.parse(process.env.REDACT_EXPORTS);
const cases = JSON.parse(fs.readFileSync(casesPath, "utf8"));
const moduleUrl = pathToFileURL(modulePath).href;

// One fresh module instance per distinct secret list: the registry is module state.
const instances = new Map();
async function instanceFor(secrets) {
	const key = JSON.stringify(secrets);
	let mod = instances.get(key);
	if (!mod) {
		mod = await import(`${moduleUrl}?instance=${instances.size}`);
		for (const value of secrets) {
			try {
				mod[names.register](value);
			} catch {}
		}
		instances.set(key, mod);
	}
	return mod;
}

// The logging config is read from the config file, as in the CLI.
const configPaths = new Map();
function configPathFor(cfg) {
	const key = JSON.stringify(cfg ?? null);
	let file = configPaths.get(key);
	if (!file) {
		file = path.join(workDir, `config-${configPaths.size}.json`);
		if (cfg !== null && cfg !== undefined) fs.writeFileSync(file, key);
		configPaths.set(key, file);
	}
	return file;
}

// Regex cases: every match (index and captures) of `new RegExp(source, flags + "g")`.
function regexResult(item) {
	let re;
	try {
		re = new RegExp(item.source, item.flags.includes("g") ? item.flags : `${item.flags}g`);
	} catch (err) {
		return { error: err?.name ?? "Error" };
	}
	const matches = [];
	for (const m of item.text.matchAll(re)) {
		matches.push([m.index, ...m.slice(0).map((v) => (v === undefined ? null : v))]);
		if (matches.length >= 200) break;
	}
	return { matches };
}

const results = [];
for (const item of cases) {
	if (item.source !== undefined) {
		results.push(regexResult(item));
		continue;
	}
	const mod = await instanceFor(item.secrets ?? []);
	process.env.OPENCLAW_CONFIG_PATH = configPathFor(item.cfg);
	try {
		results.push({ text: mod[names.redact](item.text) });
	} catch (err) {
		results.push({ error: err?.name ?? "Error" });
	}
}
if (process.argv.includes("--defaults")) {
	const mod = await instanceFor([]);
	results.push({ defaults: mod[names.defaults]() });
}
fs.writeFileSync(path.join(workDir, "results.json"), JSON.stringify(results));
