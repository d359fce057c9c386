/// Names one run of a latest-wins binding (`applyLatest(from:)`) at an action's gate, so that
/// the gate can be handed from that run to the binding's next one, and so that a run's late
/// events can be told from those of the run that replaced it.
///
/// An action issues each ticket once (``ActionStateMachine`` counts them), so no two runs of
/// one action ever hold the same ticket.
struct ActionRunTicket: Equatable {
  let number: UInt64
}
