extension Publisher {
  /// Publishes a specific element, indicated by its index in the sequence of published
  /// elements.
  ///
  /// ```swift
  /// let cancellable = ["a", "b", "c", "d"].publisher
  ///   .output(at: 2)
  ///   .sink { print($0) }
  /// // Prints: c
  /// ```
  ///
  /// Elements before the index give their unit of demand back to the upstream. Once the element
  /// is published, the operator cancels the upstream and finishes. If the upstream completes
  /// first, the completion is passed on and nothing is published. `index` must not be negative.
  public func output(at index: Int) -> Publishers.Output<Self> {
    output(in: index...index)
  }

  /// Publishes elements specified by their range in the sequence of published elements.
  ///
  /// ```swift
  /// let cancellable = [10, 20, 30, 40, 50].publisher
  ///   .output(in: 1..<3)
  ///   .sink { print($0) }
  /// // Prints: 20, 30
  /// ```
  ///
  /// Any range expression of `Int` works (`1...3`, `2...`, `..<4`). Elements before the range
  /// give their unit of demand back to the upstream; once the last element of the range is
  /// published, the operator cancels the upstream and finishes. The bounds must not be
  /// negative.
  public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self>
  where R.Bound == Int {
    Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
  }

  /// Republishes elements up to the specified maximum count.
  ///
  /// ```swift
  /// let cancellable = (1...10).publisher
  ///   .prefix(2)
  ///   .sink { print($0) }
  /// // Prints: 1, 2
  /// ```
  ///
  /// As in Combine, this is `output(in: ..<maxLength)`: once `maxLength` elements are
  /// published, the operator cancels the upstream and finishes. `maxLength` must not be
  /// negative.
  public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
    output(in: ..<maxLength)
  }
}

extension Publishers {
  /// A publisher that publishes elements specified by a range in the sequence of published
  /// elements.
  public struct Output<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher that this publisher receives elements from.
    public let upstream: Upstream

    /// The range of elements to publish, by their index in the upstream's sequence.
    public let range: CountableRange<Int>

    /// Creates a publisher that publishes the elements of `upstream` whose indices are in
    /// `range`. Its bounds must not be negative.
    public init(upstream: Upstream, range: CountableRange<Int>) {
      checkAPI(
        range.lowerBound >= 0,
        "Publishers.Output: the range \(range) starts below zero; indices start at 0.")
      self.upstream = upstream
      self.range = range
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
      upstream.subscribe(
        OperatorDriver(
          OutputLogic<Output, Failure>(range: range), downstream: subscriber))
    }
  }
}

extension Publishers.Output: Equatable where Upstream: Equatable {}

/// `output(at:)`, `output(in:)` and `prefix(_:)`: skip the elements before the range, emit
/// those in it, and finish at the first element after it (an empty range finishes at the first
/// element). As in Combine, the last element of the range does not finish: the operator learns
/// that the range is over only from one more element, which it does not publish.
@usableFromInline
struct OutputLogic<Input, Failure: Error>: OperatorLogic {
  @usableFromInline
  typealias UpstreamFailure = Failure
  @usableFromInline let range: Range<Int>

  @inlinable
  init(range: Range<Int>) {
    self.range = range
  }

  @inlinable
  var name: String { "Output" }

  /// The state: the index of the next upstream element.
  @inlinable
  var initialState: Int { 0 }

  /// As in Combine: a cancel before the upstream's subscription is only noted (the
  /// subscription that arrives is handed on untouched), and a completion before it is ignored.
  @inlinable
  var misusePolicy: MisusePolicy { .notesEarlyCancel }

  @inlinable
  func receive(_ input: Input, _ index: inout Int) -> OperatorStep<Input, Failure> {
    let current = index
    index += 1
    if current < range.lowerBound { return .skip }
    return current >= range.upperBound ? .finish : .emit(input)
  }
}
