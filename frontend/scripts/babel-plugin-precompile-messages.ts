// Runs after Lingui's macro: turns each message's English text (`message: "Hi {name}"`, kept by
// `stripMessageField: false`) into Lingui's compiled form at build time. The runtime then needs neither
// an English catalogue on the first load nor the 7 KB message compiler, and every string ships with the
// page that shows it. Other languages still load their compiled catalogue (src/lib/i18n.ts).
import type { PluginObj, types as BabelTypes } from "@babel/core";
import { compileMessage } from "@lingui/message-utils/compileMessage";

export default function precompileMessages({ types: t }: { types: typeof BabelTypes }): PluginObj {
  const compiled = (text: string) => t.valueToNode(compileMessage(text));
  const isMessageDescriptor = (object: BabelTypes.Node) =>
    t.isObjectExpression(object) &&
    object.properties.some((p) => t.isObjectProperty(p) && t.isIdentifier(p.key, { name: "id" }));
  return {
    name: "precompile-lingui-messages",
    visitor: {
      ObjectProperty(path) {
        const { key, value } = path.node;
        if (
          t.isIdentifier(key, { name: "message" }) &&
          t.isStringLiteral(value) &&
          isMessageDescriptor(path.parent)
        ) {
          path.node.value = compiled(value.value);
        }
      },
      JSXAttribute(path) {
        const { name, value } = path.node;
        if (t.isJSXIdentifier(name, { name: "message" }) && t.isStringLiteral(value)) {
          path.node.value = t.jsxExpressionContainer(compiled(value.value));
        }
      },
    },
  };
}
