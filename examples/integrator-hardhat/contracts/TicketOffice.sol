// SPDX-License-Identifier: MIT
pragma solidity 0.8.30;

import {AttestationGate} from "ferry/contracts/AttestationGate.sol";
import {IDepository} from "ferry/contracts/interfaces/IDepository.sol";
import {AttestationLib, FillAttestation} from "ferry/contracts/libraries/AttestationLib.sol";

/// @title TicketOffice
/// @notice An integrator's contract: sells a ticket only against a Ferry v2 attestation of the
/// payment (signer allowed, this chain, not expired, not used before, exact native amount), then
/// forwards the payment into Ferry's Depository under the attested orderId.
contract TicketOffice is AttestationGate {
    IDepository public immutable depository;
    address public immutable owner;

    /// @notice Tickets held per address (the attested originUser).
    mapping(address holder => uint256 count) public tickets;

    /// @notice A ticket was sold against `requestId` to `holder`.
    event TicketSold(bytes32 indexed requestId, address indexed holder, uint256 amount);

    error NotOwner(address caller);

    constructor(IDepository depository_, address signer) {
        depository = depository_;
        owner = msg.sender;
        _setSigner(signer, true);
    }

    /// @notice Lets another Ferry signer in (or out).
    function setSigner(address signer, bool allowed) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        _setSigner(signer, allowed);
    }

    /// @notice Pays `msg.value` against `att`; the ticket goes to the attested originUser.
    function buy(FillAttestation calldata att, bytes calldata signature) external payable {
        // Every check, then the requestId is marked consumed, before any funds move.
        _consumeFill(att, signature, msg.sender, address(0), msg.value);
        address holder = AttestationLib.toAddress(att.originUser);
        tickets[holder] += 1;
        emit TicketSold(att.requestId, holder, msg.value);
        depository.depositNative{value: msg.value}(holder, att.orderId);
    }
}
