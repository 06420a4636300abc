// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "forge-std/Test.sol";
import {ECDSA} from "solady/src/utils/ECDSA.sol";
import {IAttestedReceiver} from "../../contracts/interfaces/IAttestedReceiver.sol";
import {IDepository} from "../../contracts/interfaces/IDepository.sol";
import {CompactSignature, FillAttestation, RequestAttestation} from "../../contracts/libraries/AttestationLib.sol";
import {AttestationLibHarness} from "../../contracts/mocks/AttestationLibHarness.sol";

/// @notice AttestationLib reproduces every shared vector in test/vectors/attestations.json (the same
/// file ts/core is tested against): v1/v2 digests and strict recovery of each vector's signature; and
/// Solidity's ABI encoder writes the calldata of test/vectors/calldata.json (compact fill, deposits,
/// execute) byte for byte, the compact digest and EIP-2098 recovery agreeing with ts/core.
contract VectorsTest is Test {
    AttestationLibHarness internal harness;
    string internal json;

    string internal calldataJson;

    function setUp() public {
        harness = new AttestationLibHarness();
        json = vm.readFile("test/vectors/attestations.json");
        calldataJson = vm.readFile("test/vectors/calldata.json");
    }

    // ---------------------------------------------------------------- compact calldata (calldata.json)

    /// @notice Each fill vector: the packed fill completed with its target hashes to the v2 digest, the
    /// EIP-2098 signature it carries recovers the signer, and `fill_7hVe`'s calldata is the selector
    /// followed by the packed bytes.
    function test_packedFill_matchesEveryFillVector() public view {
        uint256 count = _countIn(calldataJson, ".fill");
        assertGe(count, 5, "fill vectors");
        for (uint256 i; i < count; ++i) {
            string memory key = string.concat(".fill[", vm.toString(i), "]");
            string memory name = vm.parseJsonString(calldataJson, string.concat(key, ".name"));
            bytes memory packed = vm.parseJsonBytes(calldataJson, string.concat(key, ".packed"));
            uint256 chainId = vm.parseUint(vm.parseJsonString(calldataJson, string.concat(key, ".target.chainId")));
            address receiver = vm.parseJsonAddress(calldataJson, string.concat(key, ".target.receiver"));
            bytes32 digest = vm.parseJsonBytes32(calldataJson, string.concat(key, ".digest"));
            CompactSignature memory signature = _compactSignature(string.concat(key, ".compactSignature"));

            assertEq(harness.packedFillDigest(packed, chainId, receiver), digest, name);
            assertEq(harness.recoverPackedFillSigner(packed, chainId, receiver), vm.parseJsonAddress(calldataJson, string.concat(key, ".signer")), name);
            assertEq(harness.recoverStrictCompact(harness.toPersonalSignHash(digest), signature), vm.parseJsonAddress(calldataJson, string.concat(key, ".signer")), name);
            assertEq(
                abi.encodePacked(IAttestedReceiver.fill_7hVe.selector, packed),
                vm.parseJsonBytes(calldataJson, string.concat(key, ".calldata")),
                name
            );
        }
    }

    function test_compactDeposits_matchEveryDepositVector() public view {
        uint256 count = _countIn(calldataJson, ".deposits");
        assertGe(count, 4);
        for (uint256 i; i < count; ++i) {
            string memory key = string.concat(".deposits[", vm.toString(i), "]");
            string memory name = vm.parseJsonString(calldataJson, string.concat(key, ".name"));
            bytes32 id = vm.parseJsonBytes32(calldataJson, string.concat(key, ".id"));
            bytes memory expected = vm.parseJsonBytes(calldataJson, string.concat(key, ".calldata"));
            if (keccak256(bytes(vm.parseJsonString(calldataJson, string.concat(key, ".kind")))) == keccak256("native")) {
                assertEq(abi.encodeCall(IDepository.depositNative_irOEa, (id)), expected, name);
            } else {
                address token = vm.parseJsonAddress(calldataJson, string.concat(key, ".token"));
                uint256 amount = vm.parseUint(vm.parseJsonString(calldataJson, string.concat(key, ".amount")));
                assertEq(abi.encodeCall(IDepository.depositErc20_6R0X4, (token, amount, id)), expected, name);
            }
        }
    }

    function test_compactExecute_matchesEveryExecuteVector() public view {
        uint256 count = _countIn(calldataJson, ".execute");
        assertGe(count, 3);
        for (uint256 i; i < count; ++i) {
            string memory key = string.concat(".execute[", vm.toString(i), "]");
            string memory name = vm.parseJsonString(calldataJson, string.concat(key, ".name"));
            IDepository.CallRequest memory request = _callRequest(string.concat(key, ".request"));
            CompactSignature memory signature = _compactSignature(string.concat(key, ".compactSignature"));
            assertEq(
                abi.encodeCall(IDepository.execute_kJ9b8, (request, signature)),
                vm.parseJsonBytes(calldataJson, string.concat(key, ".calldata")),
                name
            );
            assertEq(
                ECDSA.recover(vm.parseJsonBytes32(calldataJson, string.concat(key, ".digest")), signature.r, signature.vs),
                vm.parseJsonAddress(calldataJson, string.concat(key, ".signer")),
                name
            );
        }
    }

    function _countIn(string memory file, string memory arrayKey) internal view returns (uint256 count) {
        while (vm.keyExistsJson(file, string.concat(arrayKey, "[", vm.toString(count), "]"))) ++count;
    }

    function _compactSignature(string memory key) internal view returns (CompactSignature memory) {
        return CompactSignature({
            r: vm.parseJsonBytes32(calldataJson, string.concat(key, ".r")),
            vs: vm.parseJsonBytes32(calldataJson, string.concat(key, ".vs"))
        });
    }

    function _callRequest(string memory key) internal view returns (IDepository.CallRequest memory request) {
        uint256 count = _countIn(calldataJson, string.concat(key, ".calls"));
        request.calls = new IDepository.Call[](count);
        for (uint256 i; i < count; ++i) {
            string memory call = string.concat(key, ".calls[", vm.toString(i), "]");
            request.calls[i] = IDepository.Call({
                to: vm.parseJsonAddress(calldataJson, string.concat(call, ".to")),
                token: vm.parseJsonAddress(calldataJson, string.concat(call, ".token")),
                amount: vm.parseUint(vm.parseJsonString(calldataJson, string.concat(call, ".amount")))
            });
        }
        request.nonce = vm.parseUint(vm.parseJsonString(calldataJson, string.concat(key, ".nonce")));
        request.expiration = vm.parseUint(vm.parseJsonString(calldataJson, string.concat(key, ".expiration")));
    }

    function test_fillTypehash_matchesVectors() public view {
        assertEq(harness.fillTypehash(), vm.parseJsonBytes32(json, ".fillTypehash"));
    }

    function test_callsAndGateTypehashes_matchVectors() public view {
        assertEq(harness.callsFillTypehash(), vm.parseJsonBytes32(json, ".callsFillTypehash"));
        assertEq(harness.gateTypehash(), vm.parseJsonBytes32(json, ".gateTypehash"));
    }

    /// @notice Each v2 vector's calls attestation digest (what fillWithCalls checks), and its signer.
    function test_callsFillDigest_matchesEveryV2Vector() public view {
        uint256 count = _count(".v2");
        for (uint256 i; i < count; ++i) {
            string memory key = string.concat(".v2[", vm.toString(i), "]");
            bytes32 digest = harness.callsFillDigest(_fill(string.concat(key, ".input")));
            assertEq(digest, vm.parseJsonBytes32(json, string.concat(key, ".callsDigest")), _name(key));
            bytes memory signature = vm.parseJsonBytes(json, string.concat(key, ".callsSignature"));
            assertEq(harness.recoverStrict(harness.toPersonalSignHash(digest), signature), vm.parseJsonAddress(json, ".signer"));
        }
    }

    /// @notice Each gate vector: the attestation's digest bound to the gate and chain (what a gate checks).
    function test_gateDigest_matchesEveryGateVector() public view {
        uint256 count = _count(".gate");
        assertGe(count, 6, "at least 6 gate vectors");
        for (uint256 i; i < count; ++i) {
            string memory key = string.concat(".gate[", vm.toString(i), "]");
            bytes32 digest = harness.gateDigest(
                vm.parseJsonBytes32(json, string.concat(key, ".attestationDigest")),
                vm.parseJsonAddress(json, string.concat(key, ".gate")),
                _uint(string.concat(key, ".chainId"))
            );
            assertEq(digest, vm.parseJsonBytes32(json, string.concat(key, ".digest")), _name(key));
            bytes memory signature = vm.parseJsonBytes(json, string.concat(key, ".signature"));
            assertEq(harness.recoverStrict(harness.toPersonalSignHash(digest), signature), vm.parseJsonAddress(json, ".signer"));
        }
    }

    function test_requestDigest_matchesEveryV1Vector() public view {
        uint256 count = _count(".v1");
        assertGe(count, 8, "at least 8 v1 vectors");
        for (uint256 i; i < count; ++i) {
            string memory key = string.concat(".v1[", vm.toString(i), "]");
            RequestAttestation memory att = _request(string.concat(key, ".input"));
            assertEq(harness.requestDigest(att), vm.parseJsonBytes32(json, string.concat(key, ".digest")), _name(key));
        }
    }

    function test_fillDigest_matchesEveryV2Vector() public view {
        uint256 count = _count(".v2");
        assertGe(count, 8, "at least 8 v2 vectors");
        for (uint256 i; i < count; ++i) {
            string memory key = string.concat(".v2[", vm.toString(i), "]");
            FillAttestation memory att = _fill(string.concat(key, ".input"));
            assertEq(harness.fillDigest(att), vm.parseJsonBytes32(json, string.concat(key, ".digest")), _name(key));
        }
    }

    function test_recoverStrict_returnsEveryVectorSigner() public view {
        string[2] memory formats = [".v1", ".v2"];
        for (uint256 f; f < formats.length; ++f) {
            uint256 count = _count(formats[f]);
            for (uint256 i; i < count; ++i) {
                string memory key = string.concat(formats[f], "[", vm.toString(i), "]");
                bytes32 hash = harness.toPersonalSignHash(vm.parseJsonBytes32(json, string.concat(key, ".digest")));
                bytes memory signature = vm.parseJsonBytes(json, string.concat(key, ".signature"));
                assertEq(harness.recoverStrict(hash, signature), vm.parseJsonAddress(json, string.concat(key, ".signer")), _name(key));
            }
        }
    }

    function test_recoverSigner_fromStructsMatchesEveryVectorSigner() public view {
        for (uint256 i; i < _count(".v1"); ++i) {
            string memory key = string.concat(".v1[", vm.toString(i), "]");
            bytes memory signature = vm.parseJsonBytes(json, string.concat(key, ".signature"));
            address signer = harness.recoverRequestSigner(_request(string.concat(key, ".input")), signature);
            assertEq(signer, vm.parseJsonAddress(json, string.concat(key, ".signer")), _name(key));
        }
        for (uint256 i; i < _count(".v2"); ++i) {
            string memory key = string.concat(".v2[", vm.toString(i), "]");
            bytes memory signature = vm.parseJsonBytes(json, string.concat(key, ".signature"));
            address signer = harness.recoverFillSigner(_fill(string.concat(key, ".input")), signature);
            assertEq(signer, vm.parseJsonAddress(json, string.concat(key, ".signer")), _name(key));
        }
    }

    function _count(string memory arrayKey) internal view returns (uint256 count) {
        while (vm.keyExistsJson(json, string.concat(arrayKey, "[", vm.toString(count), "]"))) ++count;
    }

    function _name(string memory key) internal view returns (string memory) {
        return vm.parseJsonString(json, string.concat(key, ".name"));
    }

    function _uint(string memory key) internal view returns (uint256) {
        // Amounts up to 2^256-1 are decimal strings in the file.
        return vm.parseUint(vm.parseJsonString(json, key));
    }

    function _request(string memory key) internal view returns (RequestAttestation memory att) {
        att.requestId = vm.parseJsonBytes32(json, string.concat(key, ".requestId"));
        att.originChainId = _uint(string.concat(key, ".originChainId"));
        att.originUser = vm.parseJsonBytes32(json, string.concat(key, ".originUser"));
        att.originCurrency = vm.parseJsonBytes32(json, string.concat(key, ".originCurrency"));
        att.originAmount = _uint(string.concat(key, ".originAmount"));
        att.destinationChainId = _uint(string.concat(key, ".destinationChainId"));
        att.destinationUser = vm.parseJsonBytes32(json, string.concat(key, ".destinationUser"));
    }

    function _fill(string memory key) internal view returns (FillAttestation memory att) {
        att.requestId = vm.parseJsonBytes32(json, string.concat(key, ".requestId"));
        att.orderId = vm.parseJsonBytes32(json, string.concat(key, ".orderId"));
        att.originChainId = _uint(string.concat(key, ".originChainId"));
        att.originUser = vm.parseJsonBytes32(json, string.concat(key, ".originUser"));
        att.originCurrency = vm.parseJsonBytes32(json, string.concat(key, ".originCurrency"));
        att.originAmount = _uint(string.concat(key, ".originAmount"));
        att.destinationChainId = _uint(string.concat(key, ".destinationChainId"));
        att.destinationUser = vm.parseJsonBytes32(json, string.concat(key, ".destinationUser"));
        att.destinationCurrency = vm.parseJsonBytes32(json, string.concat(key, ".destinationCurrency"));
        att.destinationAmount = _uint(string.concat(key, ".destinationAmount"));
        att.deadline = _uint(string.concat(key, ".deadline"));
        att.receiver = vm.parseJsonAddress(json, string.concat(key, ".receiver"));
    }
}
