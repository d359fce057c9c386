import CombineEx
import CombineExTesting
import Testing

@Suite("AnyPublisher.just, .fail and .empty")
struct JustFailEmptyTests {
  @Test("just publishes the value, then finishes, as an AnyPublisher")
  func just() {
    let publisher = AnyPublisher<String, ColdTestError>.just("hello")
    #expect(type(of: publisher) == AnyPublisher<String, ColdTestError>.self)
    let recorder = publisher.record(initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == ["hello"])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("fail fails at once, without values")
  func fail() {
    let recorder = AnyPublisher<String, ColdTestError>.fail(ColdTestError(2)).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .failure(ColdTestError(2)))
  }

  @Test("empty finishes at once, without values")
  func empty() {
    let recorder = AnyPublisher<String, Never>.empty().record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("as implicit members where an AnyPublisher is expected")
  func implicitMembers() {
    func load(cached: Int?) -> AnyPublisher<Int, ColdTestError> {
      if let cached { return .just(cached) }
      return .fail(ColdTestError(1))
    }
    #expect(load(cached: 3).record().values == [3])
    #expect(load(cached: nil).record().receivedCompletion == .failure(ColdTestError(1)))
  }

  @Test("the types that declare their own just keep it")
  func ownStaticsWin() {
    #expect(
      type(of: AnyDeferredPublisher<Int, Never>.just(1)) == AnyDeferredPublisher<Int, Never>.self)
    #expect(type(of: DeferredFuture<Int, Never>.just(1)) == DeferredFuture<Int, Never>.self)
    #expect(
      type(of: AnyDeferredPublisher<Int, Never>.empty()) == AnyDeferredPublisher<Int, Never>.self)
  }
}
