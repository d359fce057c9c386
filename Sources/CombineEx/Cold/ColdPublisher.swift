import CombineExCore

/// A publisher that starts a new, independent unit of work for every subscription: a *cold*
/// publisher.
///
/// Conforming is a promise, not an implementation: subscribing twice runs the work twice, and
/// the values a subscriber receives belong to its subscription alone. `Deferred` conforms
/// (its closure runs once per subscription), as do ``AnyDeferredPublisher``, the publishers
/// that replay fixed values (`Just`, `Empty`, `Fail`, `Publishers.Sequence`, `Result.Publisher`,
/// `Optional.Publisher`, `Record`), and Combine's operator types whenever their upstreams are
/// cold, so a chain of operators on a cold publisher stays cold and can be erased with
/// ``eraseToAnyDeferredPublisher()``:
///
/// ```swift
/// var runs = 0
/// let fetch = Deferred { () -> Just<Int> in
///   runs += 1
///   return Just(runs)
/// }
/// let labels: AnyDeferredPublisher<String, Never> = fetch
///   .map { $0 * 10 }
///   .filter { $0 > 0 }
///   .map { "run \($0 / 10)" }
///   .eraseToAnyDeferredPublisher()
/// let first = labels.sink { print($0) }  // Prints: run 1
/// let second = labels.sink { print($0) }  // Prints: run 2
/// ```
///
/// The protocol adds no operator overloads: `map` on a cold publisher is Combine's `map` and
/// returns Combine's `Publishers.Map`, which is itself cold because its upstream is. Plain
/// Combine code therefore type-checks exactly as before, and the only new member,
/// ``eraseToAnyDeferredPublisher()``, exists only where coldness can be proven from the types.
/// Hot publishers (subjects, `Future`, `share()`, `AnyPublisher`, properties) do not conform.
///
/// Conform your own publisher only if each subscription really does its own work. A
/// publisher that closures create per subscription (`flatMap`'s transform, `catch`'s handler,
/// `switchToLatest`'s inner publishers) is trusted to be fresh: the operator is cold when its
/// upstream is.
public protocol ColdPublisher<Output, Failure>: Publisher {}

extension ColdPublisher {
  /// Wraps this cold publisher in an ``AnyDeferredPublisher``, which keeps the promise that
  /// each subscription runs its own unit of work.
  ///
  /// ```swift
  /// func loadGreeting(name: String) -> AnyDeferredPublisher<String, Never> {
  ///   Deferred { Just(name) }
  ///     .map { "Hello, \($0)!" }
  ///     .eraseToAnyDeferredPublisher()
  /// }
  /// let cancellable = loadGreeting(name: "Ada").sink { print($0) }
  /// // Prints: Hello, Ada!
  /// ```
  ///
  /// Erasing an `AnyDeferredPublisher` returns it unchanged.
  public func eraseToAnyDeferredPublisher() -> AnyDeferredPublisher<Output, Failure> {
    AnyDeferredPublisher(self)
  }
}

// `Deferred` is *the* cold publisher: its closure runs once per subscription.
extension Deferred: ColdPublisher {}
