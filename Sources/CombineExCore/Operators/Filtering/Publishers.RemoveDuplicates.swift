extension Publisher where Output: Equatable {
  /// Publishes only elements that don't match the previous element.
  ///
  /// ```swift
  /// let cancellable = [1, 1, 2, 2, 2, 3, 1].publisher
  ///   .removeDuplicates()
  ///   .sink { print($0) }
  /// // Prints: 1, 2, 3, 1
  /// ```
  ///
  /// Only consecutive duplicates are removed. A removed element gives its unit of demand back
  /// to the upstream.
  public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
    Publishers.RemoveDuplicates(upstream: self, predicate: ==)
  }
}

extension Publisher {
  /// Publishes only elements that don't match the previous element, as evaluated by a
  /// provided closure.
  ///
  /// ```swift
  /// let cancellable = ["a", "A", "b", "B", "a"].publisher
  ///   .removeDuplicates { $0.lowercased() == $1.lowercased() }
  ///   .sink { print($0) }
  /// // Prints: a, b, a
  /// ```
  ///
  /// The closure receives the previous element and the new one, and returns `true` when the new
  /// one is a duplicate. Each element is compared with the one received just before it, whether
  /// or not that one was published.
  public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool)
    -> Publishers.RemoveDuplicates<Self>
  {
    Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that publishes only elements that don't match the previous element.
  public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
    /// The kind of values published by this publisher: the upstream's.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure to evaluate whether two elements are equivalent, for purposes of filtering.
    public let predicate: (Output, Output) -> Bool

    /// Creates a publisher that publishes only elements that don't match the previous element,
    /// as evaluated by `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Upstream.Output == S.Input, Upstream.Failure == S.Failure {
      let predicate = self.predicate
      let logic = RemoveDuplicatesLogic<Output, Failure, Failure>(
        name: "RemoveDuplicates", isDuplicate: { .success(predicate($0, $1)) },
        convertFailure: { $0 })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}

/// `removeDuplicates` and `tryRemoveDuplicates`: remember the previous element and skip a new
/// one that the predicate calls a duplicate of it; a throwing predicate fails.
@usableFromInline
struct RemoveDuplicatesLogic<Input, UpstreamFailure: Error, Failure: Error>: OperatorLogic {
  @usableFromInline let name: String
  @usableFromInline let isDuplicate: (Input, Input) -> Result<Bool, Failure>
  @usableFromInline let convertFailure: (UpstreamFailure) -> Failure
  /// The state: the element received just before (published or not), as in Combine.
  @inlinable
  var initialState: Input? { nil }

  @inlinable
  init(
    name: String, isDuplicate: @escaping (Input, Input) -> Result<Bool, Failure>,
    convertFailure: @escaping (UpstreamFailure) -> Failure
  ) {
    self.name = name
    self.isDuplicate = isDuplicate
    self.convertFailure = convertFailure
  }

  /// As Combine's filtering operators: a value, a completion or a request before the
  /// upstream's subscription is an API violation, and a cancel before it cancels the
  /// subscription when it comes.
  @inlinable
  var misusePolicy: MisusePolicy { .trapsEarlyEvents }

  @usableFromInline
  func mirrorChildren(_ last: Input?, _ context: OperatorMirrorContext) -> [Mirror.Child] {
    [("downstream", context.downstream), ("last", last as Any)]
  }

  @inlinable
  func receive(_ input: Input, _ previous: inout Input?) -> OperatorStep<Input, Failure> {
    defer { previous = input }
    guard let previous else { return .emit(input) }
    switch isDuplicate(previous, input) {
    case .success(true): return .skip
    case .success(false): return .emit(input)
    case .failure(let error): return .fail(error)
    }
  }

  @inlinable
  func ending(for failure: UpstreamFailure) -> OperatorEnding<Input, Failure> {
    .completion(.failure(convertFailure(failure)))
  }
}
