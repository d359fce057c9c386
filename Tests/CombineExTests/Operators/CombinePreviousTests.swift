import CombineEx
import CombineExTesting
import Testing

@Suite("combinePrevious on publishers")
struct CombinePreviousTests {
  @Test("combinePrevious() pairs each value with the previous one; the first gets nil")
  func withoutInitial() {
    let recorder = [1, 2, 3].publisher.combinePrevious().record()
    #expect(recorder.values.map { "\($0.0.map(String.init) ?? "-")\($0.1)" } == ["-1", "12", "23"])
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("combinePrevious(_:) uses the initial value as the first value's previous one")
  func withInitial() {
    let subject = PassthroughSubject<Int, Never>()
    let paired = subject.combinePrevious(0)
    #expect(type(of: paired) == Publishers.Scan<PassthroughSubject<Int, Never>, (Int, Int)>.self)
    let recorder = paired.record()
    subject.send(1)
    subject.send(2)
    #expect(recorder.values.map { "\($0.0)\($0.1)" } == ["01", "12"])
  }

  @Test("on optionals the plain form is chosen; the (T?, T?) form where the context asks for it")
  func optionals() {
    typealias Source = Publishers.Sequence<[Int?], Never>
    let plain = [1, nil, 3].publisher.combinePrevious()
    #expect(
      type(of: plain)
        == Publishers.CompactMap<Publishers.Scan<Source, (Int??, Int?)?>, (Int??, Int?)>.self)
    let flat: Publishers.CompactMap<Publishers.Scan<Source, (Int?, Int?)?>, (Int?, Int?)> =
      [1, nil, 3].publisher.combinePrevious()
    let pairs = flat.record().values
    #expect(pairs.map(\.0) == [nil, 1, nil])
    #expect(pairs.map(\.1) == [1, nil, 3])
  }

  @Test("the return types are the original CombineEx's")
  func types() {
    let subject = PassthroughSubject<Int, ColdTestError>()
    #expect(
      type(of: subject.combinePrevious())
        == Publishers.CompactMap<
          Publishers.Scan<PassthroughSubject<Int, ColdTestError>, (Int?, Int)?>, (Int?, Int)
        >.self)
  }

  @Test("demand: each pair waits for demand; a failure passes through")
  func demandAndFailure() {
    let subject = PassthroughSubject<Int, ColdTestError>()
    let recorder = subject.combinePrevious(0).record(initialDemand: .max(1))
    subject.send(1)
    subject.send(completion: .failure(ColdTestError(1)))
    #expect(recorder.values.count == 1)
    #expect(recorder.receivedCompletion == .failure(ColdTestError(1)))
  }

  @Test("each subscription pairs on its own, and a cold upstream stays cold")
  func coldness() {
    let runs = RunCounter()
    let erased: AnyDeferredPublisher<(Int?, Int), Never> = countingDeferred([1, 2], counter: runs)
      .combinePrevious()
      .eraseToAnyDeferredPublisher()
    #expect(erased.record().values.map(\.1) == [1, 2])
    #expect(erased.record().values.map { $0.0 } == [nil, 1])
    #expect(runs.value == 2)
    let withInitial: AnyDeferredPublisher<(Int, Int), Never> = countingDeferred(
      [5], counter: runs
    )
    .combinePrevious(4).eraseToAnyDeferredPublisher()
    #expect(withInitial.record().values.map(\.0) == [4])
  }
}
