import CombineExCore

/// A thread-safe, never-failing value that publishes its current value and every change.
///
/// ```swift
/// let count = MutableProperty(0)
/// let cancellable = count.sink { print("count is \($0)") }  // Prints: count is 0
/// count.value = 1  // Prints: count is 1
/// count.modify { $0 += 1 }  // Prints: count is 2
/// let previous = count.swap(10)  // Prints: count is 10
/// print(previous)  // Prints: 2
/// ```
///
/// ## Semantics
/// - A new subscriber receives the current value first, then every value set afterwards, in
///   order. Setting the same value twice publishes it twice.
/// - `value`, `modify(_:)`, `withValue(_:)` and ``swap(_:)`` may be used from any thread.
///   After a set returns, every thread reads the new value.
/// - Setting the value from inside one of its own subscribers does not deadlock: the new value is
///   stored at once and delivered *after* the current delivery, in order. (A
///   `CurrentValueSubject` delivers such a value at once, nested, so that a later subscriber can
///   see the nested value before the outer one; a property keeps one order for everybody.)
/// - Reading `value` inside a subscriber is safe and returns the latest value set.
/// - No lock is held while subscribers run.
public final class MutableProperty<Output>: PropertyProtocol {

  /// A property never fails.
  public typealias Failure = Never

  @usableFromInline
  let core: SubjectCore<Output, Never>

  /// The value as of the last set. Guarded by `core.lock`. (Unchecked exclusivity: the lock
  /// serializes every access, and a set swaps it out, which would otherwise cost a runtime
  /// access check, about 150 instructions per set.)
  @usableFromInline
  @exclusivity(unchecked)
  var currentValue: Output

  /// Incremented by every set; ``modify(_:)`` uses it to detect a concurrent change.
  @usableFromInline
  @exclusivity(unchecked)
  var version: UInt64 = 0

  /// The thread that made the last set (guarded by `core.lock`): ``modify(_:)`` uses it to
  /// tell a closure that sets the property itself (which would make it retry forever) from a
  /// concurrent set.
  @usableFromInline
  @exclusivity(unchecked)
  var lastSetter: UInt = 0

  /// Creates a property with an initial value.
  @inlinable
  public init(_ initialValue: Output) {
    currentValue = initialValue
    core = SubjectCore(.property, currentValue: initialValue)
  }

  /// The current value. Setting it publishes the new value to every subscriber.
  @inlinable
  public var value: Output {
    get { core.lock.withLock { currentValue } }
    set { store(newValue) }
  }

  /// Atomically modifies the value and publishes the result once.
  ///
  /// `body` runs without any lock held (it may read this property); if another thread sets the
  /// property meanwhile, `body` runs again on the newer value, so keep it free of side effects.
  /// `body` must not set the property itself (it would never commit): that stops the program
  /// with a message.
  ///
  /// ```swift
  /// let hits = MutableProperty(0)
  /// DispatchQueue.concurrentPerform(iterations: 100) { _ in hits.modify { $0 += 1 } }
  /// print(hits.value)  // Prints: 100
  /// ```
  ///
  /// - Returns: What `body` returns.
  @inlinable
  @discardableResult
  public func modify<Result>(_ body: (inout Output) throws -> Result) rethrows -> Result {
    while true {
      var (candidate, seen) = core.lock.withLock { (currentValue, version) }
      let result = try body(&candidate)
      var replaced = candidate
      var stored = false
      var setItself = false
      core.perform(.value(candidate)) { me in
        guard version == seen else {
          setItself = lastSetter == me
          return false
        }
        Swift.swap(&currentValue, &replaced)
        version &+= 1
        lastSetter = me
        stored = true
        return true
      }
      if stored { return result }
      precondition(
        !setItself,
        "CombineEx API violation: MutableProperty.modify's closure set the property it modifies "
          + "(directly or through code it called). modify would retry it forever; change the "
          + "inout value instead")
    }
  }

  /// Calls `body` with the current value and returns its result.
  @inlinable
  public func withValue<Result>(_ body: (Output) throws -> Result) rethrows -> Result {
    try body(value)
  }

  /// Replaces the value, publishes the new one, and returns the old one.
  @inlinable
  @discardableResult
  public func swap(_ newValue: Output) -> Output {
    var old = newValue
    core.perform(.value(newValue)) { me in
      Swift.swap(&currentValue, &old)
      version &+= 1
      lastSetter = me
      return true
    }
    return old
  }

  @inlinable
  func store(_ newValue: Output) {
    // The replaced value is swapped out and released after the lock: its deinit may be user
    // code that reads `value`.
    var replaced = newValue
    core.perform(.value(newValue)) { me in
      Swift.swap(&currentValue, &replaced)
      version &+= 1
      lastSetter = me
      return true
    }
  }

  /// Completes the property's subscribers (for properties that follow a finite publisher).
  func finish() {
    core.perform(.completion(.finished)) { _ in true }
  }

  /// Attaches a subscriber, which receives the current value on its first demand, then every
  /// change.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    core.perform(core.attachEvent(for: subscriber))
  }
}

extension MutableProperty {
  /// `true`: every subscriber is attached to the property's core at once, so a `sink` keeps its
  /// closures in the subscription the property hands out (one object fewer per subscription).
  @inlinable
  public static var _attachesSubscribersToSubject: Bool { true }
}

extension MutableProperty: @unchecked Sendable where Output: Sendable {
  // @unchecked Sendable: `currentValue` and `version` are guarded by `core.lock`, and delivery
  // is serialized by `core`'s token.
}
