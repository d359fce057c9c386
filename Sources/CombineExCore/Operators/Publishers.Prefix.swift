// `prefix(_:)` on any publisher is `output(in: 0..<maxLength)`, a `Publishers.Output` (see
// Publishers.Output.swift). A sequence publisher keeps its own type, as in Combine.

extension Publishers.Sequence {
  /// Publishes at most `maxLength` elements of the sequence: the sequence's own `prefix(_:)`,
  /// so the result is still a `Publishers.Sequence` (as in Combine).
  public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
    Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
  }
}
