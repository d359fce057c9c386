extension Publisher {
  /// Decodes the output from the upstream using a specified decoder.
  ///
  /// ```swift
  /// struct Article: Codable { let title: String }
  /// let cancellable = Just(Data(#"{"title":"Combine"}"#.utf8))
  ///   .decode(type: Article.self, decoder: JSONDecoder())
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.title) })
  /// // Prints: Combine, finished
  /// ```
  ///
  /// Like `tryMap`, a decoding error cancels the upstream and fails the publisher with that
  /// error.
  ///
  /// - Parameters:
  ///   - type: The encoded data to decode into a struct that conforms to `Decodable`.
  ///   - decoder: A decoder that implements the ``TopLevelDecoder`` protocol.
  public func decode<Item: Decodable, Coder: TopLevelDecoder>(
    type: Item.Type, decoder: Coder
  ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
    Publishers.Decode(upstream: self, decoder: decoder)
  }
}

extension Publishers {
  /// A publisher that decodes elements received from an upstream publisher, using a
  /// ``TopLevelDecoder``.
  public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
  where Upstream.Output == Coder.Input {
    /// The kind of errors this publisher might publish: a decoding error, or the upstream's
    /// failure.
    public typealias Failure = any Error

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    @usableFromInline
    let decoder: Coder

    /// Creates a publisher that decodes the elements of `upstream` with `decoder`.
    public init(upstream: Upstream, decoder: Coder) {
      self.upstream = upstream
      self.decoder = decoder
    }

    /// Attaches the subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where Output == S.Input, S.Failure == any Error {
      let decoder = self.decoder
      let logic = CodingLogic<Upstream.Output, Output, Upstream.Failure>(
        name: "Decode", transform: { try decoder.decode(Output.self, from: $0) })
      upstream.subscribe(OperatorDriver(logic, downstream: subscriber))
    }
  }
}
