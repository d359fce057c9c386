import CombineExCore

/// A read-only, never-failing value that publishes its current value and every change.
///
/// Expose a `Property` in an API and keep the ``MutableProperty`` behind it private, so that
/// the implementation is the only source of truth:
///
/// ```swift
/// final class Downloader {
///   private let mutableProgress = MutableProperty(0.0)
///   let progress: Property<Double>
///   init() { progress = Property(mutableProgress) }
///   func advance() { mutableProgress.modify { $0 += 0.5 } }
/// }
/// let downloader = Downloader()
/// let cancellable = downloader.progress.sink { print($0) }  // Prints: 0.0
/// downloader.advance()  // Prints: 0.5
/// ```
///
/// A property is built in one of three ways:
/// - ``init(value:)``: a constant: subscribers receive the value, then `.finished`.
/// - ``init(_:)``: a read-only view of another property (usually a ``MutableProperty``).
/// - ``init(initial:then:)``: starts with `initial` and follows a publisher, which it subscribes
///   to once, at once, for as long as the property lives.
///
/// Composition (`map`, `combineLatest`, `flatMap`, ...) returns properties too, so derived
/// values keep a synchronous ``value``.
public final class Property<Output>: PropertyProtocol {
  /// A property never fails.
  public typealias Failure = Never

  @usableFromInline
  let currentValue: () -> Output

  @usableFromInline
  let publisher: AnyPublisher<Output, Never>

  /// The state of an eager property (a composition, or `init(initial:then:)`), which
  /// subscribers attach to directly: ``receive(subscriber:)`` is then specialized in the
  /// subscriber's module, where `publisher`, an erasure, would run generic code.
  @usableFromInline
  let storage: PropertyStorage<Output>?

  /// What the property keeps alive (for example its subscription to `then`).
  private let retained: AnyObject?

  /// The current value.
  @inlinable
  public var value: Output {
    // A property with a storage reads its cell directly (inlined and specialized in the caller,
    // where the closure over the storage ran generic code: 16% of Benchmarks' j5), borrowed:
    // `self` holds the storage while the read runs (`if let` retained and released it, two
    // atomic operations per read).
    if storage != nil {
      return Unmanaged.passUnretained(storage.unsafelyUnwrapped)._withUnsafeGuaranteedRef {
        $0.value
      }
    }
    return currentValue()
  }

  /// Creates a property from a way to read the current value and a publisher of the current
  /// value and its changes: the building block of property composition.
  @usableFromInline
  init(
    currentValue: @escaping () -> Output, publisher: AnyPublisher<Output, Never>,
    storage: PropertyStorage<Output>? = nil, retaining retained: AnyObject? = nil
  ) {
    self.currentValue = currentValue
    self.publisher = publisher
    self.storage = storage
    self.retained = retained
  }

  /// Creates a constant property: subscribers receive `value`, then `.finished`.
  ///
  /// ```swift
  /// let answer = Property(value: 42)
  /// print(answer.value)  // Prints: 42
  /// ```
  public convenience init(value: Output) {
    self.init(currentValue: { value }, publisher: Just(value).eraseToAnyPublisher())
  }

  /// Creates a read-only view of another property.
  public convenience init<P: PropertyProtocol>(_ property: P) where P.Output == Output {
    if let property = property as? Property<Output> {
      self.init(
        currentValue: property.currentValue, publisher: property.publisher,
        storage: property.storage, retaining: property.retained)
    } else {
      self.init(
        currentValue: { property.value }, publisher: property.eraseToAnyPublisher(),
        retaining: nil)
    }
  }

  /// Creates a property that starts with `initial` and then takes every value of `values`.
  ///
  /// `values` is subscribed exactly once, right away, and stays subscribed as long as the
  /// property, or any of its subscribers, lives. Late subscribers receive the latest value.
  /// When `values` finishes, the property keeps its last value and its subscribers receive
  /// `.finished`; a subscriber that comes later receives the last value, then `.finished`.
  ///
  /// ```swift
  /// let readings = PassthroughSubject<Int, Never>()
  /// let latest = Property(initial: 0, then: readings)
  /// readings.send(7)
  /// print(latest.value)  // Prints: 7
  /// ```
  public convenience init<Values: Publisher>(initial: Output, then values: Values)
  where Values.Output == Output, Values.Failure == Never {
    self.init(storing: initial, following: values)
  }

  /// Attaches a subscriber, which receives the current value, then every change.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    if let storage {
      storage.receive(subscriber: subscriber)
    } else {
      publisher.receive(subscriber: subscriber)
    }
  }
}

extension Property: @unchecked Sendable where Output: Sendable {
  // @unchecked Sendable: every stored property is immutable; reading the value goes through a
  // thread-safe MutableProperty, a locked storage, or a composition's closures over them.
}
