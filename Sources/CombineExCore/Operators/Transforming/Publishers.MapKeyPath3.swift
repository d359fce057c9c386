extension Publisher {
  /// Publishes the values of three key paths as a tuple.
  ///
  /// ```swift
  /// struct Point3D { let x: Int; let y: Int; let z: Int }
  /// let cancellable = [Point3D(x: 1, y: 2, z: 3)].publisher
  ///   .map(\.x, \.y, \.z)
  ///   .sink { print("\($0.0)/\($0.1)/\($0.2)") }
  /// // Prints: 1/2/3
  /// ```
  public func map<Result0, Result1, Result2>(
    _ keyPath0: KeyPath<Output, Result0>, _ keyPath1: KeyPath<Output, Result1>,
    _ keyPath2: KeyPath<Output, Result2>
  ) -> Publishers.MapKeyPath3<Self, Result0, Result1, Result2> {
    Publishers.MapKeyPath3(
      upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
  }
}

extension Publishers {
  /// A publisher that publishes the values of three key paths as a tuple.
  ///
  /// Create one with `map(_:_:_:)`. Like Combine's, it has no public initializer.
  public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
    /// The kind of values published by this publisher: a tuple of the three key paths' values.
    public typealias Output = (Output0, Output1, Output2)

    /// The kind of errors this publisher might publish: the upstream's.
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The key path of a property to publish.
    public let keyPath0: KeyPath<Upstream.Output, Output0>

    /// The key path of a second property to publish.
    public let keyPath1: KeyPath<Upstream.Output, Output1>

    /// The key path of a third property to publish.
    public let keyPath2: KeyPath<Upstream.Output, Output2>

    init(
      upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
      keyPath1: KeyPath<Upstream.Output, Output1>, keyPath2: KeyPath<Upstream.Output, Output2>
    ) {
      self.upstream = upstream
      self.keyPath0 = keyPath0
      self.keyPath1 = keyPath1
      self.keyPath2 = keyPath2
    }

    /// Attaches the subscriber, through a stateless subscriber that reads the key paths.
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == Failure {
      let (keyPath0, keyPath1, keyPath2) = (self.keyPath0, self.keyPath1, self.keyPath2)
      upstream.subscribe(
        KeyPathSubscriber(
          downstream: subscriber, name: "ValueForKeys",
          read: { ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2]) },
          keyPaths: (keyPath0, keyPath1, keyPath2)))
    }
  }
}
