// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {console} from "forge-std/console.sol";
import {VmSafe} from "forge-std/Vm.sol";

import {FillAttestation} from "../../contracts/libraries/AttestationLib.sol";
import {ReceiverFixture} from "./AttestedReceiver.t.sol";

/// @notice Gas of one fill under the budget's conditions: signer and recipient allow-lists on, the
/// recipient an existing funded account (already holding the token for ERC-20 fills), the solver's
/// infinite approval in place, every account and slot the fill touches cold (setUp is its own
/// transaction). Logs the fill frame's execution gas and the transaction gas it implies:
/// 21,000 + calldata (16 per non-zero byte, 4 per zero byte; EIP-7623 floor checked) + execution.
///
/// The budgets are held by `npm run bench:gas` on real receipts (native 66,300, ERC-20 75,500; issue 14:
/// 66,290 and 75,272). This harness's figures are a regression ceiling, not the budget: for the native
/// fill it reads about 200 gas more than the receipt of the same fill (66,501 vs 66,290; forge's frame
/// accounting and this fixture's values), for the ERC-20 fill about the same (75,460).
contract AttestedReceiverGasTest is ReceiverFixture {
    uint256 internal constant TX_BASE = 21_000;
    uint256 internal constant NATIVE_FILL_CEILING = 66_550;
    uint256 internal constant ERC20_FILL_CEILING = 75_500;
    /// @dev Hardhat's coverage instrumentation makes every statement call this address.
    address internal constant HARDHAT_COVERAGE = 0xc0bEc0BEc0BeC0bEC0beC0bEC0bEC0beC0beC0BE;

    function test_gas_fillNative() public {
        FillAttestation memory att = _nativeAttestation(keccak256("gas.native"));
        bytes memory data = _fillCall(att, _compactSig(_sign(att)));

        vm.prank(solver);
        uint256 before = gasleft();
        (bool ok,) = address(receiver).call{value: NATIVE_AMOUNT}(data);
        uint256 delta = before - gasleft();
        uint256 execution = vm.lastCallGas().gasTotalUsed;

        assertTrue(ok, "native fill reverted");
        uint256 txGas = _report("native fill", data, execution, delta);
        if (!_instrumented()) assertLe(txGas, NATIVE_FILL_CEILING, "native fill gas regressed");
        assertTrue(receiver.filled(att.requestId));
    }

    function test_gas_fillErc20() public {
        FillAttestation memory att = _tokenAttestation(keccak256("gas.erc20"));
        bytes memory data = _fillCall(att, _compactSig(_sign(att)));

        vm.prank(solver);
        uint256 before = gasleft();
        (bool ok,) = address(receiver).call(data);
        uint256 delta = before - gasleft();
        uint256 execution = vm.lastCallGas().gasTotalUsed;

        assertTrue(ok, "ERC-20 fill reverted");
        uint256 txGas = _report("erc20 fill", data, execution, delta);
        if (!_instrumented()) assertLe(txGas, ERC20_FILL_CEILING, "ERC-20 fill gas regressed");
        assertEq(usdc.balanceOf(recipient), 1e6 + TOKEN_AMOUNT);
    }

    function _report(string memory label, bytes memory data, uint256 execution, uint256 delta)
        internal
        pure
        returns (uint256 txGas)
    {
        (uint256 zeros, uint256 nonZeros) = _countBytes(data);
        uint256 calldataGas = zeros * 4 + nonZeros * 16;
        uint256 floorGas = TX_BASE + (zeros + nonZeros * 4) * 10; // EIP-7623
        txGas = TX_BASE + calldataGas + execution;
        if (floorGas > txGas) txGas = floorGas;
        console.log(label);
        console.log("  calldata bytes (zero / non-zero):", zeros, nonZeros);
        console.log("  calldata gas:", calldataGas);
        console.log("  execution gas (fill frame):", execution);
        console.log("  gasleft delta around the call:", delta);
        console.log("  estimated tx gas:", txGas);
    }

    function _countBytes(bytes memory data) internal pure returns (uint256 zeros, uint256 nonZeros) {
        for (uint256 i; i < data.length; ++i) {
            if (data[i] == 0) ++zeros;
            else ++nonZeros;
        }
    }

    /// @dev Coverage builds (Hardhat's instrumentation, or `forge coverage` without the optimizer) cost
    /// far more gas; the budget assertions only hold for the real build.
    function _instrumented() internal view returns (bool) {
        try vm.isContext(VmSafe.ForgeContext.Coverage) returns (bool forgeCoverage) {
            if (forgeCoverage) return true;
        } catch {}
        bytes memory code = address(receiver).code;
        bytes20 marker = bytes20(HARDHAT_COVERAGE);
        for (uint256 i; i + 20 <= code.length; ++i) {
            bytes20 window;
            assembly ("memory-safe") {
                window := mload(add(add(code, 0x20), i))
            }
            if (window == marker) return true;
        }
        return false;
    }
}
