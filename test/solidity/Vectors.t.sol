// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {Test} from "forge-std/Test.sol";
import {FillAttestation, RequestAttestation} from "../../contracts/libraries/AttestationLib.sol";
import {AttestationLibHarness} from "../../contracts/mocks/AttestationLibHarness.sol";

/// @notice AttestationLib reproduces every shared vector in test/vectors/attestations.json (the same
/// file ts/core is tested against): v1/v2 digests and strict recovery of each vector's signature.
contract VectorsTest is Test {
    AttestationLibHarness internal harness;
    string internal json;

    function setUp() public {
        harness = new AttestationLibHarness();
        json = vm.readFile("test/vectors/attestations.json");
    }

    function test_fillTypehash_matchesVectors() public view {
        assertEq(harness.fillTypehash(), vm.parseJsonBytes32(json, ".fillTypehash"));
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
