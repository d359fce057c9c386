extension Publisher where Failure == Never {
  /// Republishes elements received from a publisher, by assigning them to a property marked
  /// as a publisher.
  ///
  /// The subscription lives as long as the object that owns the `@Published` property: it is
  /// cancelled when that object is deallocated, and it does not keep the object alive, so no
  /// `AnyCancellable` is needed.
  ///
  /// ```swift
  /// final class Clock {
  ///   @Published var tick = 0
  ///   init(ticks: PassthroughSubject<Int, Never>) {
  ///     ticks.assign(to: &$tick)
  ///   }
  /// }
  /// let ticks = PassthroughSubject<Int, Never>()
  /// let clock = Clock(ticks: ticks)
  /// ticks.send(1)
  /// print(clock.tick)  // Prints: 1
  /// ```
  ///
  /// Each assigned value goes through the property's setter: `objectWillChange` and the
  /// property's own publisher emit as for any other change.
  public func assign(to published: inout Published<Output>.Publisher) {
    subscribe(PublishedAssignSubscriber(storage: published.storage))
  }
}

/// A type that publishes a property marked with an attribute.
///
/// Marking a property of a class with `@Published` gives it a publisher, reached through the
/// `$` prefix: subscribing to it delivers the current value, then every new value. As in
/// Combine, the publisher emits in the property's `willSet`: subscribers receive the new value
/// *before* the property holds it, so reading the property from a subscriber still gives the
/// old value. If the class is an ``ObservableObject``, its `objectWillChange` emits first.
///
/// ```swift
/// final class Weather {
///   @Published var temperature: Double
///   init(temperature: Double) { self.temperature = temperature }
/// }
/// let weather = Weather(temperature: 20)
/// let cancellable = weather.$temperature.sink { print("Temperature now: \($0)") }
/// // Prints: Temperature now: 20.0
/// weather.temperature = 25
/// // Prints: Temperature now: 25.0
/// ```
///
/// `@Published` is available only on properties of classes. Reading and writing the property
/// is thread-safe; when several threads write at once the last write wins, but the order in
/// which their values are delivered is not defined. Writing the property from inside one of
/// its subscribers delivers the new value at once (nested), and the property ends up holding
/// the value written last.
@propertyWrapper
public struct Published<Value> {
  /// The storage shared by every copy of this wrapper and by its publishers.
  let storage: PublishedStorage<Value>

  /// Creates the published instance with an initial wrapped value.
  ///
  /// Don't call this initializer directly. Instead, declare a property with the `@Published`
  /// attribute, and provide an initial value.
  public init(wrappedValue: Value) {
    storage = PublishedStorage(wrappedValue)
  }

  /// Creates the published instance with an initial value.
  ///
  /// Don't call this initializer directly. Instead, declare a property with the `@Published`
  /// attribute, and provide an initial value.
  public init(initialValue: Value) {
    self.init(wrappedValue: initialValue)
  }

  /// The property's value: not available, because `@Published` is only available on
  /// properties of classes, which reach the value through the enclosing-instance subscript.
  @available(*, unavailable, message: "@Published is only available on properties of classes")
  public var wrappedValue: Value {
    get { fatalError("@Published is only available on properties of classes") }
    set { fatalError("@Published is only available on properties of classes") }
  }

  /// The property for which this instance exposes a publisher.
  ///
  /// The ``Published/projectedValue`` is the property accessed with the `$` operator. Setting
  /// it changes nothing: it exists so that `assign(to: &$property)` can take it `inout`.
  ///
  /// Combine declares the getter `mutating`; here neither accessor mutates the wrapper (all
  /// state lives in a shared storage object), so that `$property` may be read from several
  /// threads at once without an exclusivity conflict on the enclosing object.
  public var projectedValue: Publisher {
    get { Publisher(storage: storage) }
    nonmutating set {}
  }

  /// Reads and writes a `@Published` property of a class; the compiler calls it for every
  /// access to such a property.
  ///
  /// Setting the value announces the change to the object's `objectWillChange`, then to the
  /// property's subscribers, and only then stores it.
  public static subscript<EnclosingSelf: AnyObject>(
    _enclosingInstance object: EnclosingSelf,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
  ) -> Value {
    get { object[keyPath: storageKeyPath].storage.value }
    set { object[keyPath: storageKeyPath].storage.set(newValue) }
  }

  /// A publisher for properties marked with the `@Published` attribute.
  ///
  /// Subscribing delivers the property's current value on the subscriber's first demand, then
  /// every new value (a subscriber without demand when values change receives the latest one
  /// when it next requests). It never completes.
  ///
  /// ```swift
  /// final class Counter: ObservableObject {
  ///   @Published var count = 0
  /// }
  /// let counter = Counter()
  /// let cancellable = counter.$count.sink { print($0) }  // Prints: 0
  /// counter.count = 1  // Prints: 1
  /// ```
  public struct Publisher: CombineExCore.Publisher {
    /// The kind of values published by this publisher: the property's type.
    public typealias Output = Value

    /// The kind of errors this publisher might publish: it cannot fail.
    public typealias Failure = Never

    /// The storage of the property this publisher publishes.
    let storage: PublishedStorage<Value>

    init(storage: PublishedStorage<Value>) {
      self.storage = storage
    }

    /// Attaches the subscriber, which receives the current value, then every change.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Value, S.Failure == Never {
      storage.subject().receive(subscriber: subscriber)
    }
  }
}

extension Published: Sendable where Value: Sendable {}
extension Published.Publisher: Sendable where Value: Sendable {}

extension Published: PublishedProperty {
  func installObjectWillChange(_ candidate: ObservableObjectPublisher?)
    -> ObservableObjectPublisher
  {
    storage.installObjectWillChange(candidate)
  }
}

/// The state of one `@Published` property: its value, the subject its subscribers attach to
/// (created on first subscription), the owner's `objectWillChange` (installed on its first
/// access) and the subscriptions made by `assign(to:)`, cancelled when the storage, and with
/// it the owner, goes away.
final class PublishedStorage<Value>: @unchecked Sendable {
  // @unchecked Sendable: every stored property is guarded by `lock`.
  private let lock = Lock()
  private var currentValue: Value
  /// The number of the write whose value `currentValue` holds (see ``set(_:)``).
  private var storedWrite: UInt64 = 0
  /// The number of the last write that started.
  private var startedWrites: UInt64 = 0
  private var currentSubject: CurrentValueSubject<Value, Never>?
  private var objectWillChange: ObservableObjectPublisher?
  private var upstreams: [ObjectIdentifier: any Subscription] = [:]

  init(_ value: Value) {
    currentValue = value
  }

  deinit {
    // The owner is gone: end the subscriptions made by `assign(to:)`.
    for subscription in upstreams.values {
      subscription.cancel()
    }
  }

  /// The property's value.
  var value: Value {
    lock.withLock { currentValue }
  }

  /// Writes the property, in Combine's `willSet` order: `objectWillChange` first, then the
  /// property's subscribers, then the stored value.
  ///
  /// Writes are numbered, and a write stores its value only if no later write has stored
  /// already, so that a write made from inside a subscriber (which finishes first) is not
  /// overwritten when the outer write resumes.
  func set(_ newValue: Value) {
    let (write, subject, objectWillChange) = lock.withLock {
      startedWrites += 1
      return (startedWrites, currentSubject, self.objectWillChange)
    }
    objectWillChange?.send()
    subject?.send(newValue)
    let missedSubject = lock.withLock { () -> CurrentValueSubject<Value, Never>? in
      guard write > storedWrite else { return nil }
      currentValue = newValue
      storedWrite = write
      // A first subscriber that arrived during the write got the old value: send it this one.
      return subject == nil ? currentSubject : nil
    }
    missedSubject?.send(newValue)
  }

  /// The subject that the property's subscribers attach to, created on first use.
  func subject() -> CurrentValueSubject<Value, Never> {
    lock.withLock {
      if let currentSubject { return currentSubject }
      let subject = CurrentValueSubject<Value, Never>(
        currentValue, kind: .published)
      currentSubject = subject
      return subject
    }
  }

  /// Returns the installed `objectWillChange` publisher, installing `candidate` (or a new
  /// publisher) if there is none.
  func installObjectWillChange(_ candidate: ObservableObjectPublisher?)
    -> ObservableObjectPublisher
  {
    lock.withLock {
      if let objectWillChange { return objectWillChange }
      let publisher = candidate ?? ObservableObjectPublisher()
      objectWillChange = publisher
      return publisher
    }
  }

  /// Keeps a subscription made by `assign(to:)` until the storage goes away; returns `false`
  /// if the subscriber already had one.
  func adopt(_ subscription: any Subscription, for subscriber: ObjectIdentifier) -> Bool {
    lock.withLock {
      guard upstreams[subscriber] == nil else { return false }
      upstreams[subscriber] = subscription
      return true
    }
  }

  /// Forgets the subscription of an `assign(to:)` subscriber whose upstream completed.
  func release(_ subscriber: ObjectIdentifier) {
    let released = lock.withLock { upstreams.removeValue(forKey: subscriber) }
    _ = released  // Released outside the lock.
  }
}

/// The subscriber of `assign(to:)`: writes each value to the property. It holds the storage
/// weakly, and the storage holds its subscription, so the property's owner controls the
/// subscription's lifetime.
final class PublishedAssignSubscriber<Value>: Subscriber, CustomStringConvertible,
  @unchecked Sendable
{
  // @unchecked Sendable: `storage` is written only in `init`; weak references are read
  // atomically.
  typealias Input = Value
  typealias Failure = Never

  private weak var storage: PublishedStorage<Value>?

  init(storage: PublishedStorage<Value>) {
    self.storage = storage
  }

  var description: String { "PublishedAssign" }

  func receive(subscription: any Subscription) {
    guard let storage, storage.adopt(subscription, for: ObjectIdentifier(self)) else {
      subscription.cancel()
      return
    }
    subscription.request(.unlimited)
  }

  func receive(_ input: Value) -> Subscribers.Demand {
    storage?.set(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    storage?.release(ObjectIdentifier(self))
  }
}
