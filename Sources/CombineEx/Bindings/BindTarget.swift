import CombineExCore

/// Something a publisher can be bound to with `<~`: an object and what to do with each value
/// (set a key path, or call a handler), on a scheduler.
///
/// Make one with `object.bind(\.keyPath)` or `object.bind { object, value in ... }` (on a
/// ``BindTargetProviding`` object), or `property.bind()`:
///
/// ```swift
/// final class Badge: BindTargetProviding {
///   var count = 0
/// }
/// let badge = Badge()
/// let unread = MutableProperty(3)
/// badge.bind(receiveOn: ImmediateScheduler.shared, \.count) <~ unread
/// unread.value = 4
/// print(badge.count)  // Prints: 4
/// ```
///
/// ## The binding's lifetime
/// A binding made by `target <~ source` lives as long as the target object, and ends when
/// `source` completes (a failure ends it too: failures are not forwarded). Neither side keeps
/// the other alive: the target is held weakly, and the target does not hold the source. The
/// subscription is kept on the target's behalf by `Publisher/sink(duringLifetimeOf:receiveSubscription:receiveValue:receiveCompletion:receiveCancel:receiveRequest:)`
/// (Linux has no associated objects to hang it on the target): once the target is gone,
/// nothing more is delivered, and the subscription is cancelled no later than the source's
/// next event.
///
/// The `BindTarget` itself is a short-lived description: it need not be kept.
public class BindTarget<T> {
  /// Subscribes a publisher for the lifetime of the target.
  let connect: (AnyPublisher<T, Never>) -> Void

  /// Creates a target that subscribes each bound publisher with `connect` (for targets the
  /// public initializers cannot describe, such as one field of a property's value).
  init(connect: @escaping (AnyPublisher<T, Never>) -> Void) {
    self.connect = connect
  }

  /// Creates a target that sets `target[keyPath: keyPath]` to each value, on `scheduler`.
  public init<Target: AnyObject>(
    target: Target,
    scheduler: some Scheduler = UIScheduler.shared,
    keyPath: WritableKeyPath<Target, T>
  ) {
    connect = { [weak target] values in
      guard let target else { return }
      values.receive(on: scheduler).sink(
        duringLifetimeOf: target,
        receiveValue: { [weak target] value in
          guard var target else { return }
          target[keyPath: keyPath] = value
        })
    }
  }

  /// Creates a target that calls `handler` with the target object and each value, on
  /// `scheduler`.
  public init<Target: AnyObject>(
    target: Target,
    scheduler: some Scheduler = UIScheduler.shared,
    handler: @escaping @Sendable (Target, T) -> Void
  ) {
    connect = { [weak target] values in
      guard let target else { return }
      values.receive(on: scheduler).sink(
        duringLifetimeOf: target,
        receiveValue: { [weak target] value in
          guard let target else { return }
          handler(target, value)
        })
    }
  }
}
