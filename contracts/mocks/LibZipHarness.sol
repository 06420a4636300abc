// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {LibZip} from "solady/src/utils/LibZip.sol";

/// @notice Test-only: solady's Solidity FastLZ (the algorithm OP Stack's GasPriceOracle prices L1
/// data with since Fjord), to check the JS port the gas bench uses against it on a chain.
contract LibZipHarness {
    function flzCompress(bytes calldata data) external pure returns (bytes memory) {
        return LibZip.flzCompress(data);
    }
}
