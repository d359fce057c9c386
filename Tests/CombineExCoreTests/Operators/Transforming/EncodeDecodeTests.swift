import CombineExCore
import CombineExTesting
import Foundation
import Testing

private struct Article: Codable, Equatable {
  let title: String
  let pages: Int
}

/// A value whose encoding always fails.
private struct Unencodable: Encodable {
  func encode(to encoder: any Encoder) throws {
    throw TestError(11)
  }
}

@Suite("encode")
struct EncodeTests {
  @Test("encodes each value with the encoder")
  func encodesValues() throws {
    let subject = PassthroughSubject<Article, Never>()
    let recorder = subject.encode(encoder: JSONEncoder()).record()
    subject.send(Article(title: "A", pages: 1))
    subject.send(completion: .finished)
    let decoded = try recorder.values.map { try JSONDecoder().decode(Article.self, from: $0) }
    #expect(decoded == [Article(title: "A", pages: 1)])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("works with the property-list encoder")
  func propertyList() throws {
    let recorder = Just(Article(title: "B", pages: 2)).encode(encoder: PropertyListEncoder())
      .record()
    let data = try #require(recorder.values.first)
    #expect(
      try PropertyListDecoder().decode(Article.self, from: data) == Article(title: "B", pages: 2))
  }

  @Test("an encoding error fails the publisher and cancels the upstream")
  func encodingErrorFails() {
    let upstream = ScriptedUpstream<Unencodable, Never>()
    let recorder = upstream.encode(encoder: JSONEncoder()).record()
    upstream.send(Unencodable())
    upstream.send(Unencodable())
    #expect(upstream.cancels == 1)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(11))
    #expect(recorder.completionCount == 1)
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let recorder = Fail<Article, TestError>(error: TestError(2)).encode(encoder: JSONEncoder())
      .record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(2))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Article, Never>().encode(encoder: JSONEncoder()).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().encode(encoder: JSONEncoder()).record(
      initialDemand: .max(1))
    #expect(recorder.values == [Data("1".utf8)])
    recorder.request(.max(1))
    #expect(recorder.values == [Data("1".utf8), Data("2".utf8)])
  }

  @Test("cancel frees the pipeline")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.encode(encoder: JSONEncoder())
        .sink(receiveCompletion: { _ in }, receiveValue: { owner.values.append($0.count) })
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("the result type is Publishers.Encode over the upstream and the coder")
  func resultType() {
    let publisher: Publishers.Encode<Just<Int>, JSONEncoder> = Just(1).encode(
      encoder: JSONEncoder())
    #expect(publisher.upstream.output == 1)
  }
}

@Suite("decode")
struct DecodeTests {
  @Test("decodes each value with the decoder")
  func decodesValues() {
    let subject = PassthroughSubject<Data, Never>()
    let recorder = subject.decode(type: Article.self, decoder: JSONDecoder()).record()
    subject.send(Data(#"{"title":"A","pages":3}"#.utf8))
    subject.send(completion: .finished)
    #expect(recorder.values == [Article(title: "A", pages: 3)])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("round-trips through the property-list coders")
  func propertyList() {
    let recorder = Just(Article(title: "P", pages: 4))
      .encode(encoder: PropertyListEncoder())
      .decode(type: Article.self, decoder: PropertyListDecoder())
      .record()
    #expect(recorder.values == [Article(title: "P", pages: 4)])
  }

  @Test("a decoding error fails the publisher and cancels the upstream")
  func decodingErrorFails() {
    let upstream = ScriptedUpstream<Data, Never>()
    let recorder = upstream.decode(type: Article.self, decoder: JSONDecoder()).record()
    upstream.send(Data(#"{"title":"A","pages":1}"#.utf8))
    upstream.send(Data("not json".utf8))
    upstream.send(Data(#"{"title":"B","pages":2}"#.utf8))
    #expect(upstream.cancels == 1)
    #expect(recorder.values == [Article(title: "A", pages: 1)])
    #expect(recorder.receivedCompletion?.failure is DecodingError)
    #expect(recorder.completionCount == 1)
  }

  @Test("passes the upstream's failure on")
  func forwardsFailure() {
    let recorder = Fail<Data, TestError>(error: TestError(4))
      .decode(type: Article.self, decoder: JSONDecoder()).record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(4))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Data, Never>().decode(type: Int.self, decoder: JSONDecoder()).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [Data("1".utf8), Data("2".utf8)].publisher
      .decode(type: Int.self, decoder: JSONDecoder())
      .record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("cancel frees the pipeline")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Data, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.decode(type: Int.self, decoder: JSONDecoder())
        .sink(receiveCompletion: { _ in }, receiveValue: { owner.values.append($0) })
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("the result type is Publishers.Decode over the upstream, the type and the coder")
  func resultType() {
    let publisher: Publishers.Decode<Just<Data>, Int, JSONDecoder> = Just(Data("5".utf8))
      .decode(type: Int.self, decoder: JSONDecoder())
    #expect(publisher.record().values == [5])
  }

  @Test("a custom TopLevelDecoder works like Foundation's")
  func customDecoder() {
    let recorder = ["12", "x"].publisher.eraseToAnyPublisher().decode(
      type: Int.self, decoder: StringIntDecoder()
    )
    .record()
    #expect(recorder.values == [12])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(99))
  }
}

/// A decoder from strings that only knows integers.
private struct StringIntDecoder: TopLevelDecoder {
  func decode<T: Decodable>(_ type: T.Type, from input: String) throws -> T {
    guard let value = Int(input) as? T else { throw TestError(99) }
    return value
  }
}
