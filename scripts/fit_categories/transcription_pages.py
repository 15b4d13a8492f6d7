#!/usr/bin/env python3
"""Writes OCR page caches (the `pipeline bench --ocr-cache` layout) from the datasets' own transcriptions: the
SROIE box files (github.com/zzzDavid/ICDAR-2019-SROIE, data/box/NNN.csv) and the WildReceipt annotations
(wildreceipt_test.txt of the fixtures' source repository), boxes grouped into lines top to bottom. The text a
perfect OCR would read, for fitting the categorizer when no engine's cache is at hand (docs/categories.md).

Usage: transcription_pages.py SROIE_GIT_DIR WILDRECEIPT_TEST_TXT OUT_ROOT [TRAIN_FIXTURES DEV_FIXTURES]
  writes OUT_ROOT/train and OUT_ROOT/dev.
"""
import glob
import json
import os
import statistics
import subprocess
import sys

repo, annotations, root = sys.argv[1:4]
fixtures = sys.argv[4:6] or ["../shared/fixtures/train", "../shared/fixtures/receipts"]
wr = {}
for line in open(annotations):
    p, a = line.rstrip('\n').split('\t', 1)
    wr[p] = json.loads(a)
def boxes_for(d,f):
    j=json.load(open(f))
    if j['source']['dataset']=='SROIE':
        n=j['source']['imagePath'].split('/')[-1].replace('.jpg','')
        csv=subprocess.run(['git','-C',repo,'show',f'HEAD:data/box/{n}.csv'],capture_output=True,text=True).stdout
        out=[]
        for l in csv.splitlines():
            parts=l.split(',',8)
            if len(parts)<9: continue
            xs=[int(parts[i]) for i in (0,2,4,6)]; ys=[int(parts[i]) for i in (1,3,5,7)]
            out.append((min(xs),min(ys),max(xs),max(ys),parts[8]))
        return out
    anns=wr[j['source']['imagePath'].replace('wildreceipt/','')]
    out=[]
    for a in anns:
        xs=[p[0] for p in a['points']]; ys=[p[1] for p in a['points']]
        if a['transcription'].strip(): out.append((int(min(xs)),int(min(ys)),int(max(xs)),int(max(ys)),a['transcription']))
    return out
def page(bx):
    if not bx: return {'lines':[],'headerLines':[],'width':1,'height':1,'meanConfidence':0}
    h=statistics.median([b[3]-b[1] for b in bx]) or 10
    bx=sorted(bx,key=lambda b:((b[1]+b[3])/2,b[0]))
    lines=[]
    for b in bx:
        c=(b[1]+b[3])/2
        if lines and abs(c-lines[-1]['c'])<=h/2: lines[-1]['b'].append(b)
        else: lines.append({'c':c,'b':[b]})
    out=[]
    for l in lines:
        words=[]
        for b in sorted(l['b'],key=lambda b:b[0]):
            toks=b[4].split()
            w=(b[2]-b[0])/max(len(toks),1)
            for i,t in enumerate(toks):
                words.append({'text':t,'confidence':95.0,'box':{'left':int(b[0]+i*w),'top':b[1],'width':max(int(w),1),'height':max(b[3]-b[1],1)}})
        if not words: continue
        L=min(x['box']['left'] for x in words); T=min(x['box']['top'] for x in words)
        R=max(x['box']['left']+x['box']['width'] for x in words); B=max(x['box']['top']+x['box']['height'] for x in words)
        out.append({'words':words,'box':{'left':L,'top':T,'width':R-L,'height':B-T}})
    W=max(b[2] for b in bx)+1; H=max(b[3] for b in bx)+1
    return {'lines':out,'headerLines':[],'width':W,'height':H,'meanConfidence':95.0}
for split,d in [('train',fixtures[0]),('dev',fixtures[1])]:
    for f in glob.glob(d+'/*/*.json'):
        img=[x for x in glob.glob(f[:-5]+'.*') if not x.endswith('.json')][0]
        rel=os.path.relpath(img,d)
        o=f'{root}/{split}/{rel}.json'
        os.makedirs(os.path.dirname(o),exist_ok=True)
        json.dump(page(boxes_for(d,f)),open(o,'w'))
print(f'wrote pages under {root}/train and {root}/dev')
