// Fails when a translation catalogue has a message without a translation, or a translation whose
// placeholders ({0}, {name}, <0>…</0>, plural forms) differ from its English text. `lingui extract
// --clean` (run before this by i18n:check) already keeps every catalogue to the messages in use.
import { readFileSync } from "node:fs";
import { formatter } from "@lingui/format-po";
import { getConfig } from "@lingui/conf";

const config = getConfig({ cwd: process.cwd() });
const po = formatter({ lineNumbers: false });
const placeholders = (text) => (text.match(/\{\w+\}|\{\w+, (?:plural|select)|<\/?\d+\/?>|#/g) ?? []).sort().join(" ");

let problems = 0;
for (const locale of config.locales.filter((locale) => locale !== config.sourceLocale)) {
  const filename = `src/locales/${locale}/messages.po`;
  const catalogue = await po.parse(readFileSync(filename, "utf8"), { locale, sourceLocale: config.sourceLocale, filename });
  for (const { message, translation } of Object.values(catalogue)) {
    if (!translation) {
      console.error(`${filename}: no translation of ${JSON.stringify(message)}`);
      problems++;
    } else if (placeholders(translation) !== placeholders(message)) {
      console.error(`${filename}: the placeholders of ${JSON.stringify(translation)} differ from ${JSON.stringify(message)}`);
      problems++;
    }
  }
}
if (problems) {
  console.error(`${problems} catalogue problem(s): translate them in src/locales (see src/locales/GLOSSARY.md).`);
  process.exit(1);
}
