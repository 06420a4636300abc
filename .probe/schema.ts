import { Type } from "typebox";
const s = Type.Object({ a: Type.Optional(Type.String()), b: Type.Array(Type.Object({ x: Type.Integer() }, { additionalProperties: false }), { maxItems: 3 }), u: Type.Union([Type.Literal("x"), Type.Integer()]) }, { additionalProperties: false });
console.log(JSON.stringify(s), Object.getOwnPropertySymbols(s), Object.keys(s));
