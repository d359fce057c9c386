extension Publisher {
  /// Collects all received elements, and emits a single array of the collection when the
  /// upstream publisher finishes.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 3].publisher
  ///   .collect()
  ///   .sink { print($0) }
  /// // Prints: [1, 2, 3]
  /// ```
  ///
  /// The operator requests unlimited elements from the upstream and buffers them all; an empty
  /// upstream publishes `[]`. If the upstream fails, the failure is passed on without the
  /// array. Use ``collect(_:)`` to bound the buffer.
  public func collect() -> Publishers.Collect<Self> {
    Publishers.Collect(upstream: self)
  }
}

extension Publishers {
  /// A publisher that buffers items.
  public struct Collect<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: all the upstream's elements.
    public typealias Output = [Upstream.Output]

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// Creates a publisher that collects all the elements of `upstream` into one array.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, S.Input == [Upstream.Output] {
      upstream.subscribe(
        OperatorDriver(CollectLogic<Upstream.Output, Failure>(), downstream: subscriber)
      )
    }
  }
}

extension Publishers.Collect: Equatable where Upstream: Equatable {}

/// `collect()`: append every element; publish the array at the end.
@usableFromInline
struct CollectLogic<Input, Failure: Error>: ReducingLogic {
  @usableFromInline
  typealias UpstreamFailure = Failure

  @inlinable
  init() {}

  @inlinable
  var name: String { "Collect" }

  /// The state: the elements so far.
  @inlinable
  var initialState: [Input] { [] }

  @inlinable
  func result(_ elements: [Input]) -> [Input]? { elements }

  /// As in Combine: only how many elements were collected so far.
  @usableFromInline
  func mirrorChildren(_ elements: [Input], _ context: OperatorMirrorContext) -> [Mirror.Child] {
    [("count", elements.count)]
  }

  @inlinable
  func receive(_ input: Input, _ elements: inout [Input]) -> OperatorStep<[Input], Failure> {
    elements.append(input)
    return .consume
  }
}
