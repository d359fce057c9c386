extension Publisher {
  /// Wraps this publisher with a type eraser.
  ///
  /// Use it to expose an ``AnyPublisher`` across an API boundary instead of the publisher's
  /// full type.
  ///
  /// ```swift
  /// let subject = PassthroughSubject<Int, Never>()
  /// let publisher: AnyPublisher<String, Never> = subject
  ///   .map { "#\($0)" }
  ///   .eraseToAnyPublisher()
  /// ```
  @inlinable
  public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
    AnyPublisher(self)
  }
}

/// A publisher that performs type erasure by wrapping another publisher.
///
/// ```swift
/// func numbers() -> AnyPublisher<Int, Never> {
///   [1, 2, 3].publisher.eraseToAnyPublisher()
/// }
/// let cancellable = numbers().sink { print($0) }
/// // Prints: 1, 2, 3
/// ```
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible,
  CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  let box: AnyPublisherBox<Output, Failure>

  /// Creates a type-erasing publisher to wrap the provided publisher. Wrapping an
  /// `AnyPublisher` again reuses its storage.
  @inlinable
  public init<P: Publisher>(_ publisher: P) where Output == P.Output, Failure == P.Failure {
    if let erased = publisher as? AnyPublisher<Output, Failure> {
      self = erased
    } else {
      box = PublisherBox(publisher)
    }
  }

  /// A textual representation of the publisher: `"AnyPublisher"`.
  public var description: String { "AnyPublisher" }

  /// "AnyPublisher", as the description.
  public var playgroundDescription: Any { description }

  /// Attaches the subscriber to the wrapped publisher.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    box.receive(subscriber: subscriber)
  }
}

extension AnyPublisher: Sendable where Output: Sendable {}

/// The erased storage of ``AnyPublisher``.
@usableFromInline
class AnyPublisherBox<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked Sendable: a publisher value is immutable; AnyPublisher is Sendable only when its
  // output is.
  @usableFromInline
  init() {}

  @usableFromInline
  func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    preconditionFailure("abstract")
  }
}

@usableFromInline
final class PublisherBox<P: Publisher>: AnyPublisherBox<P.Output, P.Failure>,
  @unchecked Sendable
{
  @usableFromInline
  let publisher: P

  @inlinable
  init(_ publisher: P) {
    self.publisher = publisher
  }

  @inlinable
  override func receive<S: Subscriber>(subscriber: S)
  where P.Output == S.Input, P.Failure == S.Failure {
    // `receive`, as Combine's: an `_Introspection` sees the subscriber subscribe to the
    // AnyPublisher only, and its next subscription is the wrapped publisher's own.
    publisher.receive(subscriber: subscriber)
  }
}
