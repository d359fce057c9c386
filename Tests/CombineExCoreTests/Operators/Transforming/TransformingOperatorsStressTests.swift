import CombineExCore
import CombineExTesting
import Testing

@Suite("transforming and filtering operators under concurrency")
struct TransformingOperatorsStressTests {
  @Test("stress: collect(count) multiplies requests made from many threads at once")
  func stressCollectByCountConcurrentRequests() async {
    let recorder = ConcurrentRecorder<[Int]>(initialDemand: .none)
    Array(0..<4_000).publisher.collect(4).subscribe(recorder)
    await concurrentPerform(500) { _ in recorder.request(.max(1)) }
    #expect(recorder.values.count == 500)
    #expect(recorder.values.allSatisfy { $0.count == 4 })
    #expect(recorder.values.flatMap { $0 } == Array(0..<2_000))
    #expect(recorder.overlaps == 0)
    #expect(recorder.completions == 0)
  }

  @Test("stress: collect(count) fed by 8 threads delivers every element once, in full arrays")
  func stressCollectByCountConcurrentSends() async {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = ConcurrentRecorder<[Int]>(initialDemand: .unlimited)
    subject.collect(3).subscribe(recorder)
    let threads = 8
    let perThread = 2_000
    await concurrentPerform(threads) { thread in
      for index in 0..<perThread { subject.send(thread * perThread + index) }
    }
    subject.send(completion: .finished)
    let arrays = recorder.values
    #expect(arrays.dropLast().allSatisfy { $0.count == 3 })
    #expect(arrays.flatMap { $0 }.sorted() == Array(0..<(threads * perThread)))
    #expect(recorder.overlaps == 0)
    #expect(recorder.completions == 1)
  }

  @Test("stress: collect(count) cancelled while 8 threads send and request is safe")
  func stressCollectByCountCancelRace() async {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = ConcurrentRecorder<[Int]>(initialDemand: .max(10))
    subject.collect(2).subscribe(recorder)
    await concurrentPerform(8) { thread in
      for index in 0..<1_000 {
        subject.send(index)
        if index.isMultiple(of: 50) { recorder.request(.max(1)) }
        if thread == 0, index == 500 { recorder.cancel() }
      }
    }
    subject.send(completion: .finished)
    #expect(recorder.overlaps == 0)
    #expect(recorder.completions == 0)
    #expect(recorder.values.allSatisfy { $0.count == 2 })
  }

  @Test("stress: scan fed by 8 threads folds every element, delivering serially")
  func stressScanConcurrentSends() async {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = ConcurrentRecorder<Int>(initialDemand: .unlimited)
    subject.scan(0) { total, _ in total + 1 }.subscribe(recorder)
    await concurrentPerform(8) { _ in
      for _ in 0..<2_000 { subject.send(1) }
    }
    #expect(recorder.values == Array(1...16_000))
    #expect(recorder.overlaps == 0)
  }

  @Test("stress: count and removeDuplicates fed by 8 threads see every element")
  func stressReducingAndDedupConcurrentSends() async {
    let subject = PassthroughSubject<Int, Never>()
    let counter = ConcurrentRecorder<Int>(initialDemand: .max(1))
    let deduplicated = ConcurrentRecorder<Int>(initialDemand: .unlimited)
    subject.count().subscribe(counter)
    subject.removeDuplicates().subscribe(deduplicated)
    await concurrentPerform(8) { thread in
      for index in 0..<2_000 { subject.send(thread * 2_000 + index) }
    }
    subject.send(completion: .finished)
    #expect(counter.values == [16_000])
    #expect(deduplicated.values.count == 16_000)
    #expect(counter.overlaps == 0 && deduplicated.overlaps == 0)
  }

  @Test("stress: first(where:) answered while 8 threads send publishes exactly one value")
  func stressFirstWhereConcurrentSends() async {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = ConcurrentRecorder<Int>(initialDemand: .max(1))
    subject.first { $0 >= 1_000 }.subscribe(recorder)
    await concurrentPerform(8) { _ in
      for index in 0..<2_000 { subject.send(index) }
    }
    #expect(recorder.values.count == 1)
    #expect(recorder.values.allSatisfy { $0 >= 1_000 })
    #expect(recorder.completions == 1)
    #expect(recorder.overlaps == 0)
  }
}
