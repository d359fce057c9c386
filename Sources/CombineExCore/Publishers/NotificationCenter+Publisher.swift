import Foundation

extension NotificationCenter {
  /// Returns a publisher that emits events when broadcasting notifications.
  ///
  /// ```swift
  /// let center = NotificationCenter()
  /// let name = Notification.Name("Refreshed")
  /// let cancellable = center.publisher(for: name)
  ///   .sink { print($0.name.rawValue) }
  /// center.post(name: name, object: nil)
  /// // Prints: Refreshed
  /// ```
  ///
  /// - Parameters:
  ///   - name: The name of the notification to publish.
  ///   - object: The object posting the named notification. If `nil`, the publisher emits
  ///     elements for any object producing a notification with the given name.
  /// - Returns: A publisher that emits events when broadcasting notifications.
  public func publisher(for name: Notification.Name, object: AnyObject? = nil)
    -> NotificationCenter.Publisher
  {
    Publisher(center: self, name: name, object: object)
  }

  /// A publisher that emits elements when broadcasting notifications.
  ///
  /// Each subscription adds an observer to the center; cancelling removes it. A notification
  /// is delivered synchronously, on the posting thread, if the subscriber has outstanding
  /// demand, and dropped otherwise. Notifications posted from several threads at once reach
  /// the subscriber one at a time. The publisher never completes.
  public struct Publisher: CombineExCore.Publisher {
    /// The kind of values published by this publisher: the notifications.
    public typealias Output = Notification

    /// The kind of errors this publisher might publish: it never fails.
    public typealias Failure = Never

    /// The notification center this publisher uses as a source.
    public let center: NotificationCenter

    /// The name of notifications published by this publisher.
    public let name: Notification.Name

    /// The object posting the named notification.
    public let object: AnyObject?

    /// Creates a publisher that emits events when broadcasting notifications.
    ///
    /// - Parameters:
    ///   - center: The notification center to publish notifications for.
    ///   - name: The name of the notification to publish.
    ///   - object: The object posting the named notification. If `nil`, the publisher emits
    ///     elements for any object producing a notification with the given name.
    public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
      self.center = center
      self.name = name
      self.object = object
    }

    /// Attaches the subscriber and starts observing the center.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Notification, S.Failure == Never {
      let subscription = NotificationSubscription(downstream: subscriber)
      subscription.start(center: center, name: name, object: object)
    }
  }
}

extension NotificationCenter.Publisher: Equatable {
  /// Two notification publishers are equal when they observe the same center, name and
  /// object (compared by identity).
  public static func == (lhs: NotificationCenter.Publisher, rhs: NotificationCenter.Publisher)
    -> Bool
  {
    lhs.center === rhs.center && lhs.name == rhs.name && lhs.object === rhs.object
  }
}

/// The subscription of ``NotificationCenter/Publisher``: an observer that counts demand.
final class NotificationSubscription<Downstream: Subscriber>: Subscription,
  NotificationReceiving, CustomStringConvertible, @unchecked Sendable
where Downstream.Input == Notification, Downstream.Failure == Never {
  // @unchecked Sendable: `demand`, `observer` and `center` are guarded by `lock`; the outbox is
  // thread-safe.
  private let lock = Lock()
  private var demand = Subscribers.Demand.none
  private var cancelled = false
  private var observer: (any NSObjectProtocol)?
  private var center: NotificationCenter?
  private let outbox: SerialOutbox<Downstream>

  init(downstream: Downstream) {
    outbox = SerialOutbox(downstream: downstream)
  }

  var description: String { "NotificationCenter Observer" }

  deinit {
    // Freed without a cancel (its subscriber let it go): the observer must not outlive it.
    if let center, let observer { center.removeObserver(observer) }
  }

  /// Hands the subscription downstream, then adds the observer (unless cancelled meanwhile).
  func start(center: NotificationCenter, name: Notification.Name, object: AnyObject?) {
    outbox.start(self)
    let token = center.addObserver(
      forName: name, object: object, queue: nil, using: observerBlock(NotificationTarget(self)))
    let keep = lock.withLock { () -> Bool in
      guard !cancelled else { return false }
      observer = token
      self.center = center
      return true
    }
    if !keep { center.removeObserver(token) }
  }

  func receive(_ notification: Notification) {
    let send = lock.withLock { () -> Bool in
      guard !cancelled, demand > .none else { return false }
      demand -= 1
      outbox.enqueue(.value(notification))
      return true
    }
    guard send else { return }
    let more = outbox.deliverOne()
    if more > .none {
      lock.withLock { demand += more }
    }
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock {
      guard !cancelled else { return }
      self.demand += demand
    }
  }

  func cancel() {
    let (center, observer) = lock.withLock {
      () -> (NotificationCenter?, (any NSObjectProtocol)?) in
      cancelled = true
      defer {
        self.center = nil
        self.observer = nil
      }
      return (self.center, self.observer)
    }
    outbox.close()
    if let center, let observer { center.removeObserver(observer) }
  }
}

/// What a notification observer calls; lets the observer block be made outside generic code.
protocol NotificationReceiving: AnyObject, Sendable {
  func receive(_ notification: Notification)
}

/// A weak reference to the subscription, so that the center's observer does not keep it alive.
final class NotificationTarget: Sendable {
  weak let target: (any NotificationReceiving)?

  init(_ target: any NotificationReceiving) {
    self.target = target
  }
}

/// The block given to the center. Made in a non-generic function, so that it captures no
/// generic type.
func observerBlock(_ target: NotificationTarget) -> @Sendable (Notification) -> Void {
  { notification in target.target?.receive(notification) }
}
