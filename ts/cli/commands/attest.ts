/** `ferry attest digest|sign|verify`: the v1/v2 attestation formats from the command line. */
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ATTESTATION_FORMATS, attestationDigest, normalizeAttestation, type AttestationFormat } from "../../core/attestationDigest.ts";
import { FillTargetMismatchError, InvalidInputError } from "../../core/errors.ts";
import type { FillAttestation } from "../../core/attestationDigest.ts";
import { fillTargetMismatches } from "../../core/fillCalldata.ts";
import { parseAddress } from "../../core/inputParsers.ts";
import { signAttestationDigest } from "../../core/signAttestation.ts";
import { verifyAttestation } from "../../core/verifyAttestation.ts";
import { EXIT, UsageError, printError, printResult, readJsonInput, type CliIo } from "../cliIo.ts";
import { runSubcommand, type CommandGroup, type GlobalFlags } from "../commandGroup.ts";
import { integerFlag, parseCommandArgs, requiredFlag, type ParsedCommand } from "../parseCommandArgs.ts";

/** The only place the attester key is read from. It is never printed, logged or echoed in errors. */
export const ATTESTER_KEY_ENV = "FERRY_ATTESTER_KEY";

const HELP = `Usage: ferry attest <command> --format v1|v2 [options] <file.json|->

Attestations are EIP-191 personal-sign signatures over a 32-byte digest (docs/architecture.md).
The input is a JSON object with the attestation's fields: numbers as JSON numbers or decimal
strings, users and currencies as 20-byte addresses or 32-byte hex; - reads stdin.
  v1: requestId, originChainId, originUser, originCurrency, originAmount, destinationChainId, destinationUser
  v2: v1 + orderId, destinationCurrency, destinationAmount, deadline, receiver
A document with v2 fields under --format v1 is an error (exit 2), not a v1 digest of part of it.

Commands:
  digest   print the 0x digest
  sign     print the signature; the key is read from $${ATTESTER_KEY_ENV} only
  verify   exit 0 if valid, 1 if not (reason on stderr)
             --signature 0x...   the 65-byte signature
             --signer 0x...      an allowed signer (repeatable)
             --now <unix>        clock for the v2 deadline (default: now)
             --chain-id <id>     v2: the chain the fill goes to, and
             --receiver 0x...    the AttestedReceiver it calls: exit 1 with FILL_TARGET_MISMATCH naming
                                 the field when the attestation names others. The packed fill does not
                                 send them, so onchain such a fill only fails as SignerNotAllowed.

Options: --format v1|v2 (required)  --json (machine output)  -h, --help
`;

const FORMAT_OPTION = { format: { type: "string" } } as const;

/** The fields only a v2 attestation has. */
const V2_ONLY_FIELDS = ["orderId", "destinationCurrency", "destinationAmount", "deadline", "receiver"] as const;

/**
 * The input file's attestation, refused when it does not match the format: v1 would hash the v1
 * subset of a v2 document and print a digest nobody signs (the v2 fields are simply missing from a
 * v1 document, which the v2 parser already reports).
 */
async function attestationInput(io: CliIo, path: string, format: AttestationFormat): Promise<unknown> {
  const input = await readJsonInput(io, path);
  if (format === "v1" && input !== null && typeof input === "object" && !Array.isArray(input)) {
    const v2Fields = V2_ONLY_FIELDS.filter((field) => Object.hasOwn(input, field));
    if (v2Fields.length > 0) {
      throw new InvalidInputError(`the document is a v2 attestation (it has ${v2Fields.join(", ")}): use --format v2`, { path: "format" });
    }
  }
  return input;
}

function formatOf(parsed: ParsedCommand): AttestationFormat {
  const format = requiredFlag(parsed, "format");
  if (!(ATTESTATION_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be v1 or v2, got ${JSON.stringify(format)}`);
  return format as AttestationFormat;
}

async function digest(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, FORMAT_OPTION, { min: 1, max: 1 });
  if (parsed.help) return help(io);
  const format = formatOf(parsed);
  const result = attestationDigest(format, await attestationInput(io, parsed.positionals[0]!, format));
  printResult(io, parsed.json || globals.json, result, { format, digest: result });
  return EXIT.OK;
}

async function sign(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(args, FORMAT_OPTION, { min: 1, max: 1 });
  if (parsed.help) return help(io);
  const format = formatOf(parsed);
  const input = await attestationInput(io, parsed.positionals[0]!, format);
  const key = io.env[ATTESTER_KEY_ENV];
  if (key === undefined || key === "") throw new UsageError(`${ATTESTER_KEY_ENV} is not set`);
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new UsageError(`${ATTESTER_KEY_ENV} is not a 0x-prefixed 32-byte private key`);
  let account;
  try {
    account = privateKeyToAccount(key as Hex);
  } catch {
    // No cause: the underlying error could quote the key.
    throw new UsageError(`${ATTESTER_KEY_ENV} is not a valid secp256k1 private key`);
  }
  const digestHex = attestationDigest(format, input);
  const signature = await signAttestationDigest(account, digestHex);
  printResult(io, parsed.json || globals.json, signature, { format, digest: digestHex, signature, signer: account.address });
  return EXIT.OK;
}

async function verify(args: readonly string[], io: CliIo, globals: GlobalFlags): Promise<number> {
  const parsed = parseCommandArgs(
    args,
    {
      ...FORMAT_OPTION,
      signature: { type: "string" },
      signer: { type: "string", multiple: true },
      now: { type: "string" },
      "chain-id": { type: "string" },
      receiver: { type: "string" },
    },
    { min: 1, max: 1 },
  );
  if (parsed.help) return help(io);
  const json = parsed.json || globals.json;
  const format = formatOf(parsed);
  const signature = requiredFlag(parsed, "signature");
  const signerFlags = (parsed.values.signer as string[] | undefined) ?? [];
  if (signerFlags.length === 0) throw new UsageError("missing --signer");
  // Bad input is exit 2; only the verification itself decides between 0 and 1.
  const signers = signerFlags.flatMap((value) => value.split(",")).map((value) => parseAddress(value, "--signer"));
  const now = integerFlag(parsed, "now") ?? io.now();
  const chainIdFlag = parsed.values["chain-id"] as string | undefined;
  const receiverFlag = parsed.values.receiver as string | undefined;
  if ((chainIdFlag === undefined) !== (receiverFlag === undefined)) throw new UsageError("--chain-id and --receiver go together");
  if (chainIdFlag !== undefined && format !== "v2") throw new UsageError("--chain-id and --receiver apply to --format v2 only");
  if (chainIdFlag !== undefined && !/^[0-9]{1,78}$/.test(chainIdFlag)) throw new UsageError("--chain-id must be a non-negative integer");
  const target = chainIdFlag === undefined ? undefined : { chainId: BigInt(chainIdFlag), receiver: parseAddress(receiverFlag!, "--receiver") };
  const attestation = normalizeAttestation(format, await attestationInput(io, parsed.positionals[0]!, format));

  // Where the fill goes first: a mismatch there is the cause whatever the signature says.
  const [mismatch] = target ? fillTargetMismatches(attestation as FillAttestation, target) : [];
  if (mismatch) {
    const failure = new FillTargetMismatchError(mismatch.field, mismatch.attested, mismatch.target);
    const error = { code: failure.code, message: failure.message, field: mismatch.field };
    if (json) printResult(io, true, "", { valid: false, format, error });
    printError(io, json, { code: failure.code, message: failure.message });
    return EXIT.INVALID;
  }
  const result = await verifyAttestation({ format, attestation, signature: signature as Hex, signers, now });
  if (result.valid) {
    printResult(io, json, `valid: signed by ${result.signer}`, { valid: true, format, signer: result.signer, digest: result.digest });
    return EXIT.OK;
  }
  const error = { code: result.error.code, message: result.error.message };
  if (json) printResult(io, true, "", { valid: false, format, error });
  printError(io, json, error);
  return EXIT.INVALID;
}

function help(io: CliIo): number {
  io.stdout(HELP);
  return EXIT.OK;
}

export const attest: CommandGroup = {
  help: HELP,
  run: (args, io, globals) => runSubcommand("attest", HELP, { digest, sign, verify }, args, io, globals, (m) => new UsageError(m)),
};
