/// A value handed from the thread that produced it to the task that awaits it.
///
/// A publisher's values need not be `Sendable` (as in Combine), but a continuation only takes
/// values that it may send to the awaiting task. The hand-off is sound because the producer
/// lets go of the value as it resumes the continuation: from then on only the awaiting task
/// uses it, exactly as when a subscriber receives a value on the publisher's thread.
package struct Handoff<Value>: @unchecked Sendable {
  // @unchecked Sendable: the value is handed over once, and the sender keeps no access to it.
  /// The value handed over.
  package let value: Value

  /// Wraps `value` for the hand-off.
  package init(_ value: Value) {
    self.value = value
  }
}
