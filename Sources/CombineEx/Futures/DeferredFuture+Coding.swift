import CombineExCore

// Encoding and decoding a future's value; each returns a cold `DeferredFuture` whose failure is
// `any Error` (the coder's error, or this future's failure).

extension DeferredFutureProtocol {
  /// Encodes the future's value with `encoder`.
  ///
  /// ```swift
  /// struct Point: Codable { let x: Int }
  /// let cancellable = DeferredFuture<Point, Never>.just(Point(x: 1))
  ///   .encode(encoder: JSONEncoder())
  ///   .sink(receiveCompletion: { _ in }, receiveValue: { print(String(decoding: $0, as: UTF8.self)) })
  /// // Prints: {"x":1}
  /// ```
  ///
  /// An encoding error fails the result; so does this future's failure.
  public func encode<Coder: TopLevelEncoder>(
    encoder: Coder
  ) -> DeferredFuture<Coder.Output, any Error> where Output: Encodable {
    tryMap { try encoder.encode($0) }
  }

  /// Decodes the future's value as an `item` with `decoder`.
  ///
  /// ```swift
  /// struct Point: Codable { let x: Int }
  /// let cancellable = DeferredFuture<Data, Never>.just(Data(#"{"x":2}"#.utf8))
  ///   .decode(item: Point.self, decoder: JSONDecoder())
  ///   .sink(receiveCompletion: { _ in }, receiveValue: { print($0.x) })
  /// // Prints: 2
  /// ```
  ///
  /// A decoding error fails the result; so does this future's failure.
  public func decode<Item: Decodable, Coder: TopLevelDecoder>(
    item: Item.Type, decoder: Coder
  ) -> DeferredFuture<Item, any Error> where Output == Coder.Input {
    tryMap { try decoder.decode(item, from: $0) }
  }
}
