import CombineExCore

/// Represents the lifetime of an object, which ends when the object's ``Lifetime/Token`` is
/// deinitialized.
///
/// Keep the token in the object whose lifetime you want to express, and hand out the lifetime:
///
/// ```swift
/// final class Screen {
///   private let token = Lifetime.Token()
///   var lifetime: Lifetime { token.lifetime }
/// }
/// var screen: Screen? = Screen()
/// let lifetime = screen!.lifetime
/// let ticks = PassthroughSubject<Int, Never>()
/// let cancellable = ticks.prefix(during: lifetime).sink(
///   receiveCompletion: { print($0) }, receiveValue: { print($0) })
/// ticks.send(1)  // Prints: 1
/// screen = nil  // Prints: finished — at once, without waiting for another value
/// ```
///
/// Observing a lifetime never keeps its object alive.
public final class Lifetime: @unchecked Sendable {
  // @unchecked Sendable: `state` is guarded by `lock`; observers run outside the lock, once.

  private let lock = Lock()
  private var state = State.alive(observers: [:], nextID: 0)

  private enum State {
    case alive(observers: [UInt64: () -> Void], nextID: UInt64)
    case ended
  }

  /// A lifetime that has already ended.
  public static var ended: Lifetime {
    let lifetime = Lifetime()
    lifetime.end()
    return lifetime
  }

  /// Creates a lifetime and the token that ends it when deinitialized.
  public static func make() -> (lifetime: Lifetime, token: Token) {
    let token = Token()
    return (token.lifetime, token)
  }

  init() {}

  /// Whether the lifetime has ended.
  public var hasEnded: Bool {
    lock.withLock {
      if case .ended = state { return true }
      return false
    }
  }

  /// How many observers wait for the end of this lifetime (none once it has ended): lets
  /// tests check that observers which stopped caring removed themselves.
  package var observerCount: Int {
    lock.withLock {
      guard case .alive(let observers, _) = state else { return 0 }
      return observers.count
    }
  }

  /// Calls `action` when the lifetime ends (at once, if it already has).
  ///
  /// - Returns: A cancellable that removes the observer (discarding it keeps the observer);
  ///   `nil` if the lifetime had already ended and `action` has run.
  @discardableResult
  public func observeEnded(_ action: @escaping () -> Void) -> (any Cancellable)? {
    let id = lock.withLock { () -> UInt64? in
      guard case .alive(var observers, let nextID) = state else { return nil }
      observers[nextID] = action
      state = .alive(observers: observers, nextID: nextID + 1)
      return nextID
    }
    guard let id else {
      action()
      return nil
    }
    return LifetimeObservation(lifetime: self, id: id)
  }

  fileprivate func removeObserver(_ id: UInt64) {
    let removed = lock.withLock { () -> (() -> Void)? in
      guard case .alive(var observers, let nextID) = state else { return nil }
      let removed = observers.removeValue(forKey: id)
      state = .alive(observers: observers, nextID: nextID)
      return removed
    }
    // Released outside the lock: the closure may capture objects with deinitializers.
    _ = removed
  }

  /// Ends the lifetime and runs the observers, once.
  func end() {
    let observers = lock.withLock { () -> [() -> Void] in
      guard case .alive(let observers, _) = state else { return [] }
      state = .ended
      return observers.sorted { $0.key < $1.key }.map(\.value)
    }
    for observer in observers { observer() }
  }

  /// Ends its ``Lifetime`` when deinitialized. Keep it in the object whose lifetime it
  /// represents.
  public final class Token: Sendable {
    /// The lifetime this token ends.
    public let lifetime = Lifetime()

    /// Creates a token and its lifetime.
    public init() {}

    deinit {
      lifetime.end()
    }
  }
}

/// The handle ``Lifetime/observeEnded(_:)`` returns: cancelling removes the observer; dropping
/// it does not.
private struct LifetimeObservation: Cancellable {
  weak var lifetime: Lifetime?
  let id: UInt64

  func cancel() {
    lifetime?.removeObserver(id)
  }
}
