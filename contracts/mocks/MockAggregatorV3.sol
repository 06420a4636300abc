// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

/// @notice Test-only Chainlink-style price feed (the AggregatorV3Interface reads: `decimals`,
/// `description`, `version`, `latestRoundData`, `getRoundData`) whose latest round is set as a whole by
/// the test, including the malformed rounds a real feed can return — a negative or zero answer, an
/// incomplete round (`updatedAt` 0), an answer carried over from an earlier round
/// (`answeredInRound < roundId`), a stale `updatedAt` — so the service's feed checks can be exercised.
contract MockAggregatorV3 {
    uint8 public immutable decimals;
    string public description;
    uint256 public constant version = 4;

    uint80 private _roundId;
    int256 private _answer;
    uint256 private _startedAt;
    uint256 private _updatedAt;
    uint80 private _answeredInRound;

    constructor(uint8 decimals_, string memory description_) {
        decimals = decimals_;
        description = description_;
    }

    function setRound(uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound) external {
        (_roundId, _answer, _startedAt, _updatedAt, _answeredInRound) = (roundId, answer, startedAt, updatedAt, answeredInRound);
    }

    function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) {
        return (_roundId, _answer, _startedAt, _updatedAt, _answeredInRound);
    }

    function getRoundData(uint80 roundId) external view returns (uint80, int256, uint256, uint256, uint80) {
        require(roundId == _roundId, "no data present");
        return (_roundId, _answer, _startedAt, _updatedAt, _answeredInRound);
    }
}
