/// A merge's live inputs, in the order they were added (the `inputs` of
/// ``MergeStateMachine``): the first in place, the others in an array, so that a merge of one
/// input at a time (`flatMap` of `Just`s, `switchToLatest`) allocates no array.
///
/// Kept in place only because an input is loadable (its subscription is a
/// ``MergeSubscription``): with an `any Subscription` in it, every copy and assignment of the
/// input in place ran value witnesses and cost more than the array's allocation (issue 30).
@usableFromInline
struct MergeInputList: RandomAccessCollection {
  /// The first input, or ``MergeInputState/none`` when the list is empty (not an optional,
  /// so that the subscript yields it in place).
  @usableFromInline
  var head = MergeInputState.none
  /// The inputs after the first.
  @usableFromInline
  var tail: [MergeInputState] = []

  @inlinable
  init() {}

  /// Inputs `0..<count` (a fixed merge), the array of the others made at its size.
  @inlinable
  init(count: Int) {
    guard count > 0 else { return }
    head = MergeInputState(id: 0)
    tail = (1..<count).map { MergeInputState(id: $0) }
  }

  @inlinable
  var startIndex: Int { 0 }

  @inlinable
  var endIndex: Int { head.id < 0 ? 0 : 1 &+ tail.count }

  /// Read only: changed in place through ``update(at:_:)`` (a `_modify` accessor, not
  /// inlined, allocated its coroutine frame; a setter copied the input, a retain and a release
  /// of its subscription).
  @inlinable
  subscript(position: Int) -> MergeInputState {
    position == 0 ? head : tail[position &- 1]
  }

  /// Changes the input at `position` in place.
  @inlinable
  mutating func update(at position: Int, _ body: (inout MergeInputState) -> Void) {
    if position == 0 { body(&head) } else { body(&tail[position &- 1]) }
  }

  /// Adds `input` last.
  @inlinable
  mutating func append(_ input: MergeInputState) {
    if head.id < 0 { head = input } else { tail.append(input) }
  }

  /// Removes the input at `position`.
  @inlinable
  mutating func remove(at position: Int) {
    guard position == 0 else {
      tail.remove(at: position &- 1)
      return
    }
    head = tail.isEmpty ? .none : tail.removeFirst()
  }

  /// Runs `body` on every input in order, changing it in place (no copy of the input, whose
  /// subscription a copy would retain and release).
  @inlinable
  mutating func updateEach(_ body: (inout MergeInputState) -> Void) {
    guard head.id >= 0 else { return }
    body(&head)
    for index in tail.indices { body(&tail[index]) }
  }

  /// The subscriptions of the inputs that have one, in order.
  @inlinable
  var subscriptions: [MergeSubscription] {
    var subscriptions: [MergeSubscription] = []
    guard head.id >= 0 else { return subscriptions }
    if let subscription = head.subscription { subscriptions.append(subscription) }
    for input in tail {
      if let subscription = input.subscription { subscriptions.append(subscription) }
    }
    return subscriptions
  }

  /// Removes every input.
  @inlinable
  mutating func removeAll() {
    head = .none
    tail.removeAll()
  }
}
