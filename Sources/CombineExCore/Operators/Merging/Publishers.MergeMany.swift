extension Publisher {
  /// Combines elements from this publisher with those from another publisher of the same type,
  /// delivering an interleaved sequence of elements.
  ///
  /// ```swift
  /// let first = PassthroughSubject<Int, Never>()
  /// let second = PassthroughSubject<Int, Never>()
  /// let cancellable = first.merge(with: second).sink { print($0) }
  /// first.send(1)
  /// second.send(2)
  /// // Prints: 1, 2
  /// ```
  ///
  /// Behaves like ``Publishers/Merge``; merging more publishers of this type into the result
  /// with ``Publishers/MergeMany/merge(with:)`` keeps one flat `MergeMany`.
  ///
  /// - Parameter other: Another publisher of this publisher's type.
  /// - Returns: A publisher that emits an element whenever either upstream publisher emits one.
  public func merge(with other: Self) -> Publishers.MergeMany<Self> {
    Publishers.MergeMany(self, other)
  }
}

extension Publishers {
  /// A publisher created by applying the merge function to an arbitrary number of upstream
  /// publishers of one type.
  ///
  /// ```swift
  /// let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
  /// let cancellable = Publishers.MergeMany(subjects).sink { print($0) }
  /// subjects[2].send(20)
  /// subjects[0].send(0)
  /// // Prints: 20, 0
  /// ```
  ///
  /// Behaves like ``Publishers/Merge``: shared demand, serial delivery, completion after every
  /// upstream publisher finished, failure as soon as one fails. Merging no publishers at all
  /// finishes at once.
  public struct MergeMany<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes: the upstream publishers'.
    public typealias Output = Upstream.Output

    /// The kind of errors this publisher might publish: the upstream publishers'.
    public typealias Failure = Upstream.Failure

    /// The array of upstream publishers that this publisher merges together.
    public let publishers: [Upstream]

    /// Creates a publisher that merges the elements of any number of upstream publishers.
    @inlinable
    public init(_ upstream: Upstream...) {
      publishers = upstream
    }

    /// Creates a publisher that merges the elements of a sequence of upstream publishers.
    public init<S: Swift.Sequence>(_ upstream: S) where Upstream == S.Element {
      publishers = Array(upstream)
    }

    /// Attaches the subscriber: it receives its subscription, then every upstream publisher is
    /// subscribed, in order.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let storage = MergeStorage(
        mode: .fixed(inputCount: publishers.count), downstream: subscriber, name: "MergeMany")
      subscriber.receive(subscription: storage)
      storage.start()
      for (index, publisher) in publishers.enumerated() {
        storage.subscribe(publisher, as: index)
      }
    }

    /// Adds one more upstream publisher to merge, returning one flat `MergeMany`.
    ///
    /// ```swift
    /// let merged = Publishers.MergeMany(Just(1), Just(2))
    /// let cancellable = merged
    ///   .merge(with: Just(3))  // still one MergeMany, of three publishers
    ///   .sink { print($0) }
    /// // Prints: 1, 2, 3
    /// ```
    public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
      Publishers.MergeMany(publishers + [other])
    }
  }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}
