import CombineExCore

/// A type-erased publisher that promises a new, independent unit of work per subscription.
///
/// Where `AnyPublisher` says nothing about what subscribing does, `AnyDeferredPublisher` says
/// it in the type: every subscription starts its own run (a request, a query, a computation),
/// and the values it receives are that run's alone. Return it from APIs whose publishers are
/// cold, and keep `AnyPublisher` for hot or shared ones.
///
/// ```swift
/// var requests = 0
/// func fetchCount() -> AnyDeferredPublisher<Int, Never> {
///   AnyDeferredPublisher {
///     requests += 1
///     return Just(requests)
///   }
/// }
/// let count = fetchCount()
/// print(requests)  // Prints: 0
/// let first = count.sink { print($0) }  // Prints: 1
/// let second = count.sink { print($0) }  // Prints: 2
/// ```
///
/// Build one from a publisher factory (``init(makePublisher:)``), from any ``ColdPublisher``
/// (``init(_:)`` or ``ColdPublisher/eraseToAnyDeferredPublisher()``), or with ``just(_:)``,
/// ``fail(_:)`` and ``empty()``. Operators keep coldness: `map`, `filter`, `flatMap` and the
/// other operators on an `AnyDeferredPublisher` return Combine's operator types, which are
/// cold and erase back with `eraseToAnyDeferredPublisher()`.
public struct AnyDeferredPublisher<Output, Failure: Error>: ColdPublisher,
  CustomStringConvertible
{
  /// The erased cold publisher. Erasing through `AnyPublisher` reuses its storage.
  private let erased: AnyPublisher<Output, Failure>

  /// Creates a cold publisher that calls `makePublisher` for every subscription and attaches
  /// the subscriber to the publisher it returns.
  ///
  /// Nothing runs until a subscriber arrives; each subscriber gets its own publisher.
  ///
  /// ```swift
  /// let now = AnyDeferredPublisher<Date, Never> { Just(Date()) }
  /// let cancellable = now.sink { print($0) }  // the date of the subscription
  /// ```
  public init<P: Publisher>(makePublisher: @escaping () -> P)
  where P.Output == Output, P.Failure == Failure {
    erased = AnyPublisher(Deferred(createPublisher: makePublisher))
  }

  /// Creates a cold publisher that calls `createPublisher` for every subscription: the original
  /// CombineEx's spelling of ``init(makePublisher:)``.
  ///
  /// ```swift
  /// let now = AnyDeferredPublisher<Date, Never>(createPublisher: { Just(Date()) })
  /// ```
  ///
  /// Disfavored so that a trailing closure (`AnyDeferredPublisher { ... }`) picks
  /// ``init(makePublisher:)``; both do the same.
  @_disfavoredOverload
  public init<P: Publisher>(createPublisher: @escaping () -> P)
  where P.Output == Output, P.Failure == Failure {
    self.init(makePublisher: createPublisher)
  }

  /// Wraps a cold publisher. Wrapping an `AnyDeferredPublisher` returns it unchanged.
  public init<P: ColdPublisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
    if let alreadyErased = publisher as? AnyDeferredPublisher<Output, Failure> {
      self = alreadyErased
    } else {
      erased = AnyPublisher(publisher)
    }
  }

  /// The type of the publisher each subscription runs, as the original CombineEx names it.
  public typealias WrappedPublisher = AnyPublisher<Output, Failure>

  /// A closure that returns the publisher of one new run: subscribing to it runs the work
  /// once, as subscribing to this publisher does.
  ///
  /// ```swift
  /// let greeting = AnyDeferredPublisher<String, Never>.just("hi")
  /// let cancellable = greeting.createPublisher().sink { print($0) }  // Prints: hi
  /// ```
  public var createPublisher: () -> AnyPublisher<Output, Failure> {
    { [erased] in erased }
  }

  /// A textual representation of the publisher: `"AnyDeferredPublisher"`.
  public var description: String { "AnyDeferredPublisher" }

  /// Starts a new run for the subscriber.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    erased.receive(subscriber: subscriber)
  }
}

extension AnyDeferredPublisher {
  /// A cold publisher that gives each subscriber `output`, then finishes.
  ///
  /// ```swift
  /// let answer = AnyDeferredPublisher<Int, Error>.just(42)
  /// let cancellable = answer.sink(receiveCompletion: { _ in }, receiveValue: { print($0) })
  /// // Prints: 42
  /// ```
  public static func just(_ output: Output) -> AnyDeferredPublisher<Output, Failure> {
    AnyDeferredPublisher(Result<Output, Failure>.Publisher(.success(output)))
  }

  /// A cold publisher that fails each subscriber with `error` at once.
  ///
  /// ```swift
  /// struct Offline: Error {}
  /// let failing = AnyDeferredPublisher<Int, Offline>.fail(Offline())
  /// let cancellable = failing.sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: failure(Offline())
  /// ```
  public static func fail(_ error: Failure) -> AnyDeferredPublisher<Output, Failure> {
    AnyDeferredPublisher(Fail(error: error))
  }

  /// A cold publisher that finishes each subscriber at once, without values.
  ///
  /// ```swift
  /// let nothing = AnyDeferredPublisher<Int, Never>.empty()
  /// let cancellable = nothing.sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
  /// // Prints: finished
  /// ```
  public static func empty() -> AnyDeferredPublisher<Output, Failure> {
    AnyDeferredPublisher(Empty())
  }
}

extension AnyDeferredPublisher: Sendable where Output: Sendable {}
